/**
 * The vitest projects (vitest.config.ts): every test file is in exactly one of them (a file in
 * none never runs, one in both runs twice), the type tests are checked by one project only, and
 * no unit test reaches for Redis, a child process or the end-to-end harness, directly or through
 * a helper of test/.
 */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, matchesGlob, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.ts';

const root = join(import.meta.dirname, '..', '..');

interface ProjectTest {
  readonly name: string;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly typecheck?: { readonly enabled?: boolean; readonly include?: readonly string[] };
  readonly isolate?: boolean;
}

const projects = (config.test?.projects ?? []).map((project) => (project as { test: ProjectTest }).test);
const matches = (file: string, patterns: readonly string[] = []) =>
  patterns.some((pattern) => matchesGlob(file, pattern));
const files = (pattern: string) => globSync(pattern, { cwd: root }).sort();

/** For each file, the projects that run it: `include` matches, `exclude` does not. */
function projectsOf(file: string, patterns: (project: ProjectTest) => readonly string[] | undefined): string[] {
  return projects
    .filter((project) => matches(file, patterns(project)) && !matches(file, project.exclude))
    .map((project) => project.name);
}

function notInExactlyOne(all: string[], patterns: (project: ProjectTest) => readonly string[] | undefined) {
  return all
    .map((file) => ({ file, in: projectsOf(file, patterns) }))
    .filter((entry) => entry.in.length !== 1)
    .map((entry) => `${entry.file}: in ${entry.in.length === 0 ? 'no project' : entry.in.join(' and ')}`);
}

describe('vitest projects', () => {
  it('are unit and integration', () => {
    expect(projects.map((project) => project.name)).toEqual(['unit', 'integration']);
  });

  it('hold every test file exactly once', () => {
    const tests = files('test/**/*.test.ts');
    expect(tests.length).toBeGreaterThan(0);
    expect(notInExactlyOne(tests, (project) => project.include)).toEqual([]);
  });

  it('type-check every type test in one project only', () => {
    const typeTests = files('test/**/*.test-d.ts');
    expect(typeTests.length).toBeGreaterThan(0);
    const typecheck = (project: ProjectTest) => (project.typecheck?.enabled ? project.typecheck.include : undefined);
    expect(notInExactlyOne(typeTests, typecheck)).toEqual([]);
    expect(projects.filter((project) => project.typecheck?.enabled).map((project) => project.name)).toEqual(['unit']);
  });

  it('keep Redis, child processes and the end-to-end harness out of unit tests', () => {
    const forbidden = [
      'ioredis',
      'node:child_process',
      'test/support/redis.ts',
      'test/support/redis-processes.ts',
      'test/support/redis-deployments.ts',
      'test/support/e2e.ts',
    ];
    const unitTests = files('test/**/*.test.ts').filter((file) => projectsOf(file, (p) => p.include).includes('unit'));
    const found = unitTests.flatMap((file) =>
      reachable(file)
        .filter((module) => forbidden.includes(module))
        .map((module) => `${file} reaches ${module}`),
    );
    expect(found, 'name the file *.int.test.ts (integration), or mock what it reaches').toEqual([]);
  });
});

describe('unit files share their modules', () => {
  it('the unit project runs without isolation, the integration project with it', () => {
    expect(projects.map((project) => [project.name, project.isolate ?? true])).toEqual([
      ['unit', false],
      ['integration', true],
    ]);
  });

  it('so no unit file, nor a helper of test/ it reaches, mocks a module or stubs a global or the environment', () => {
    // A module mock applies only where the module is not loaded yet, and a stub outlives its file.
    const sharing = /\bvi\.(?:mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)\(/;
    const unitTests = files('test/**/*.test.ts').filter((file) => projectsOf(file, (p) => p.include).includes('unit'));
    const found = unitTests.flatMap((file) =>
      reachable(file)
        .filter((module) => module.startsWith('test/') && existsSync(join(root, module)))
        .filter((module) => sharing.test(readFileSync(join(root, module), 'utf8')))
        .map((module) => (module === file ? file : `${file} reaches ${module}`)),
    );
    expect(found, 'name the file *.int.test.ts (isolated), or plug the double in without a module mock').toEqual([]);
  });
});

/** Modules a test file imports, following relative imports inside test/ (a bounded walk). */
function reachable(file: string): string[] {
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length > 0 && seen.size < 1000) {
    const current = queue.shift()!;
    if (seen.has(current)) continue;
    seen.add(current);
    if (!current.startsWith('test/') || !existsSync(join(root, current))) continue;
    const source = readFileSync(join(root, current), 'utf8');
    for (const [, specifier] of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/g)) {
      queue.push(specifier!.startsWith('.') ? relative(root, resolve(root, dirname(current), specifier!)) : specifier!);
    }
  }
  return [...seen];
}
