/** `npm run mutate`'s arguments (scripts/mutate.ts): targets become Stryker's `--mutate` files, the rest passes through. */
import { describe, expect, it } from 'vitest';
import { filesOf, strykerArguments } from '../../scripts/mutate.ts';
import { INTEGRATION_FILES, UNIT_FILES } from '../../vitest.config.ts';
import { includeOf } from '../../vitest.stryker.config.ts';

describe('npm run mutate', () => {
  it('mutates a file as named, its mutation range kept', () => {
    expect(filesOf('src/http/relay.ts')).toEqual(['src/http/relay.ts']);
    expect(filesOf('src/http/relay.ts:10-20')).toEqual(['src/http/relay.ts:10-20']);
  });

  it('mutates every source file below a folder, declarations left out', () => {
    const files = filesOf('src/proxy/');
    expect(files).toContain('src/proxy/server.ts');
    expect(files).toEqual(filesOf('src/proxy'));
    expect(
      files.every((file) => file.startsWith('src/proxy/') && file.endsWith('.ts') && !file.endsWith('.d.ts')),
    ).toBe(true);
  });

  it('passes everything from the first option on to stryker run', () => {
    expect(strykerArguments(['src/pagination/walk.ts', 'src/http/relay.ts', '--concurrency', '1', '--force'])).toEqual({
      args: ['run', '--mutate', 'src/pagination/walk.ts,src/http/relay.ts', '--concurrency', '1', '--force'],
      tests: [],
    });
  });

  it('takes --tests out for vitest, anywhere among the options, with an incremental file of its own', () => {
    const { args, tests } = strykerArguments([
      'src/stores/',
      '--tests',
      'test/stores/',
      '--force',
      '--tests',
      'test/http/relay.test.ts',
    ]);
    expect(tests).toEqual(['test/stores', 'test/http/relay.test.ts']);
    expect(args).toEqual([
      'run',
      '--mutate',
      filesOf('src/stores/').join(','),
      '--incrementalFile',
      'reports/stryker-incremental-test_stores+test_http_relay.test.ts.json',
      '--force',
    ]);
  });

  it("names a long narrowing's incremental file within a file name's 255 bytes, by its start and a hash", () => {
    const many = [
      'sync',
      'sync-holes',
      'openapi-coverage',
      'sync-openapi',
      'sync-facts',
      'sync-derive',
      'sync-draft',
      'history',
    ].map((name) => `test/catalog/${name}.test.ts`);
    const fileOf = (tests: string[]) => {
      const { args } = strykerArguments(['scripts/sync/openapi.ts', ...tests.flatMap((test) => ['--tests', test])]);
      return args[args.indexOf('--incrementalFile') + 1]!;
    };
    const name = fileOf(many).slice('reports/'.length);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(name).toMatch(
      /^stryker-incremental-test_catalog_sync\.test\.ts\+test_catalog_sync-holes.*-[0-9a-f]{16}\.json$/,
    );
    // Two long narrowings that share their start still keep files of their own.
    expect(fileOf([...many, 'test/catalog/replay.test.ts'])).not.toBe(fileOf(many));
    expect(fileOf(many)).toBe(fileOf(many));
  });

  it('refuses --tests without a test file or folder', () => {
    expect(() => strykerArguments(['src/stores/', '--tests'])).toThrow(/--tests needs/);
    expect(() => strykerArguments(['src/stores/', '--tests', '--force'])).toThrow(/--tests needs/);
    expect(() => strykerArguments(['src/stores/', '--tests', 'src/stores'])).toThrow(
      /no such file or folder under test/,
    );
    expect(() => strykerArguments(['src/stores/', '--tests', 'test/no-such'])).toThrow(
      /no such file or folder under test/,
    );
  });

  it('refuses no target, a missing one, and a range on a folder', () => {
    expect(() => strykerArguments(['--force'])).toThrow(/name the files or folders/);
    expect(() => filesOf('src/no-such-file.ts')).toThrow(/no such file or folder/);
    expect(() => filesOf('src/proxy:1-2')).toThrow(/needs a file/);
  });
});

describe('vitest.stryker.config.ts with --tests', () => {
  const unit = [UNIT_FILES];
  const integration = [INTEGRATION_FILES];

  it('runs every test file when nothing narrows it', () => {
    expect(includeOf(unit, undefined)).toEqual(unit);
  });

  it("keeps a folder's files under each project's own pattern", () => {
    expect(includeOf(unit, ['test/proxy'])).toEqual(['test/proxy/**/*.test.ts']);
    expect(includeOf(integration, ['test/proxy'])).toEqual(['test/proxy/**/*.int.test.ts']);
  });

  it('gives a file to the projects whose pattern takes it', () => {
    expect(includeOf(integration, ['test/proxy/options.test.ts'])).toEqual([]);
    expect(includeOf(integration, ['test/proxy/proxy.int.test.ts'])).toEqual(['test/proxy/proxy.int.test.ts']);
    // The unit project's pattern takes an integration file too; its exclude leaves it out.
    expect(includeOf(unit, ['test/proxy/options.test.ts'])).toEqual(['test/proxy/options.test.ts']);
  });
});
