/** The proxy's own answers (src/proxy/answers.ts): each reason has its row in docs/proxy.md. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROXY_ANSWER } from '../../src/proxy/index.ts';

describe("the proxy's own answers", () => {
  const table = readFileSync(new URL('../../docs/proxy.md', import.meta.url), 'utf8');

  it.each(Object.values(PROXY_ANSWER))('%s has its row in docs/proxy.md', (code) => {
    expect(table).toMatch(new RegExp(`^\\| \\d{3} \\| .* \\| \`${code}\` \\| [^|]+ \\|$`, 'm'));
  });

  it('names each reason once', () => {
    expect(new Set(Object.values(PROXY_ANSWER)).size).toBe(Object.values(PROXY_ANSWER).length);
  });
});
