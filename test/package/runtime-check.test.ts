/**
 * The Node.js version check (src/runtime-check.ts): the rule on versions given to it, and that
 * every entry of package.json (exports and bin) imports it before anything else. These run
 * everywhere; test/package/tarball.int.test.ts also loads the packed entries on the machine's older
 * Node.js (`/usr/bin/node`) when it has one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  assertSupportedRuntime,
  MINIMUM_NODE_MAJOR,
  nodeVersionProblem,
  runtimeProblem,
} from '../../src/runtime-check.ts';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  exports: Record<string, string | { default: string }>;
  bin: Record<string, string>;
};

describe('nodeVersionProblem', () => {
  it.each(['20.20.2', '21.7.3', '18.0.0', '0.10.48', 'v20.1.0'])('refuses Node.js %s in one line', (version) => {
    const problem = nodeVersionProblem(version);
    expect(problem).toBe(`tollgate needs Node.js 22 or newer (this is Node.js ${version})`);
    expect(problem).not.toContain('\n');
  });

  it.each(['22.0.0', '22.12.0', '23.11.1', '24.21.0', '100.0.0'])('accepts Node.js %s', (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it('says nothing without a version it can read (another runtime)', () => {
    expect(nodeVersionProblem(undefined)).toBeUndefined();
    expect(nodeVersionProblem('nightly')).toBeUndefined();
  });

  it('asks for the Node.js that package.json asks for', () => {
    expect(manifest.engines.node).toBe(`>=${MINIMUM_NODE_MAJOR}`);
  });
});

describe('runtimeProblem: Bun and Deno by their own versions', () => {
  it.each([
    [{ bun: '1.1.38', node: '22.6.0' }, 'tollgate needs Bun 1.2 or newer (this is Bun 1.1.38)'],
    [{ bun: '0.8.1' }, 'tollgate needs Bun 1.2 or newer (this is Bun 0.8.1)'],
    [{ deno: '1.46.3', node: '20.11.1' }, 'tollgate needs Deno 2.0 or newer (this is Deno 1.46.3)'],
  ])('refuses %o in one line', (runtime, line) => {
    expect(runtimeProblem(runtime)).toBe(line);
  });

  it.each([
    { bun: '1.2.0', node: '22.6.0' },
    { bun: '1.4.5', node: '24.3.0' },
    { bun: '2.0.0' },
    // Deno 2 reports the Node.js it emulates; an old one there is not Deno's age.
    { deno: '2.0.0', node: '20.11.1' },
    { deno: '2.9.6', node: '24.2.0' },
    // workerd (Cloudflare Workers) names no version: the core needs only the web platform.
    {},
  ])('accepts %o', (runtime) => {
    expect(runtimeProblem(runtime)).toBeUndefined();
  });
});

describe('assertSupportedRuntime', () => {
  it('throws an Error whose message is the one line', () => {
    expect(() => assertSupportedRuntime({ node: '20.20.2' })).toThrowError(
      new Error('tollgate needs Node.js 22 or newer (this is Node.js 20.20.2)'),
    );
  });

  it('passes on this Node.js, and on a newer one', () => {
    expect(() => assertSupportedRuntime()).not.toThrow();
    expect(() => assertSupportedRuntime({ node: '22.0.0' })).not.toThrow();
  });
});

/** The sources of package.json's exports and bin: `./dist/src/x/index.js` → `src/x/index.ts`. */
const entries = [
  ...Object.values(manifest.exports).map((target) => (typeof target === 'string' ? target : target.default)),
  ...Object.values(manifest.bin),
]
  .filter((target) => target.endsWith('.js'))
  .map((target) => target.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));

/** Import and export-from statements, in source order, comments left out. */
function moduleSpecifiers(source: string): string[] {
  const code = source
    .replace(/^#!.*$/m, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  return [...code.matchAll(/^\s*(?:import|export)\b[^;]*?(?:from\s*)?['"]([^'"]+)['"]/gm)].map((match) => match[1]!);
}

describe('every entry checks the Node.js version first', () => {
  it('package.json has the entries this checks', () => {
    expect(entries).toEqual(
      expect.arrayContaining([
        'src/index.ts',
        'src/redis/index.ts',
        'src/undici/index.ts',
        'src/testing/index.ts',
        'src/testing/cli.ts',
      ]),
    );
  });

  it.each(entries)('%s imports src/runtime-check.ts before anything else', (entry) => {
    const [first] = moduleSpecifiers(readFileSync(join(root, entry), 'utf8'));
    expect(first, `${entry}: its first import`).toBeDefined();
    expect(relative(root, resolve(root, dirname(entry), first!))).toBe(join('src', 'runtime-check.ts'));
  });

  it('src/runtime-check.ts imports nothing (so it runs before anything that needs Node.js 22)', () => {
    const source = readFileSync(join(root, 'src', 'runtime-check.ts'), 'utf8');
    expect(moduleSpecifiers(source)).toEqual([]);
    expect(source).not.toMatch(/\bimport\s*\(|\brequire\s*\(/);
  });
});
