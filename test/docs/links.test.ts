/** Relative links in the README and docs point at files inside this repository. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const documents = [
  'README.md',
  'CHANGELOG.md',
  'generated/README.md',
  'docs/design.md',
  'docs/benchmarks.md',
  'docs/catalog.md',
  'docs/cloudflare.md',
  'docs/cdn.md',
  'docs/client.md',
  'docs/interactions.md',
  'docs/migrating.md',
  'docs/redis.md',
  'docs/reference-service.md',
  'docs/telemetry.md',
  'docs/v10-limits.md',
];

it.each(documents)('%s links only to files in the repository', (document) => {
  const text = readFileSync(join(root, document), 'utf8');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((t) => !/^[a-z]+:/i.test(t));
  for (const target of targets) {
    const file = resolve(root, dirname(document), target.split('#')[0]!);
    expect(relative(root, file).startsWith('..'), `${document} → ${target} leaves the repository`).toBe(false);
    expect(existsSync(file), `${document} → ${target} does not exist`).toBe(true);
  }
});
