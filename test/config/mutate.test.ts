/** `npm run mutate`'s arguments (scripts/mutate.ts): targets become Stryker's `--mutate` files, the rest passes through. */
import { describe, expect, it } from 'vitest';
import { filesOf, strykerArguments } from '../../scripts/mutate.ts';

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
    expect(strykerArguments(['src/pagination/walk.ts', 'src/http/relay.ts', '--concurrency', '1', '--force'])).toEqual([
      'run',
      '--mutate',
      'src/pagination/walk.ts,src/http/relay.ts',
      '--concurrency',
      '1',
      '--force',
    ]);
  });

  it('refuses no target, a missing one, and a range on a folder', () => {
    expect(() => strykerArguments(['--force'])).toThrow(/name the files or folders/);
    expect(() => filesOf('src/no-such-file.ts')).toThrow(/no such file or folder/);
    expect(() => filesOf('src/proxy:1-2')).toThrow(/needs a file/);
  });
});
