/**
 * V1: the base URL's version picks the dialect. `/api/v10` and the versions the service answers
 * under today's rules (v8, v9) speak v10; `/api` and `/api/v6` (and v7) the seed's rules. A URL
 * that names no version picks none (the client's `api` option, else v10, decides).
 */
import { describe, expect, it } from 'vitest';
import { apiOfBaseUrl, DIALECTS } from '../../src/dialects/index.ts';

describe('V1: the dialect a base URL names', () => {
  it.for([
    ['https://discord.com/api', 'v6'],
    ['https://discord.com/api/', 'v6'],
    ['https://discord.com/api/v6', 'v6'],
    ['https://discord.com/api/v7', 'v6'],
    ['https://discord.com/api/v8', 'v10'],
    ['https://discord.com/api/v9', 'v10'],
    ['https://discord.com/api/v10', 'v10'],
    ['https://discord.com/api/v10/', 'v10'],
    ['http://127.0.0.1:8080/proxy/api/v8', 'v10'],
  ] as const)('%s speaks %s', ([baseUrl, api]) => {
    expect(apiOfBaseUrl(baseUrl)).toBe(api);
  });

  it('a URL that names no version picks no dialect', () => {
    expect(apiOfBaseUrl('https://discord.com/')).toBeUndefined();
    expect(apiOfBaseUrl('http://127.0.0.1:8080/proxy')).toBeUndefined();
  });

  it('each version is spoken by exactly one dialect: v10 from 8 up, v6 below 8 and without a version', () => {
    const expected = [
      [undefined, 'v6'],
      [6, 'v6'],
      [7, 'v6'],
      [8, 'v10'],
      [9, 'v10'],
      [10, 'v10'],
      [11, 'v10'],
    ] as const;
    for (const [version, api] of expected) {
      const speakers = Object.entries(DIALECTS)
        .filter(([, dialect]) => dialect.speaks(version))
        .map(([name]) => name);
      expect(speakers, `version ${version}`).toEqual([api]);
    }
  });
});
