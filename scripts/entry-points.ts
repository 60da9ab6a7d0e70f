/**
 * The package's entry points as package.json `exports` names them: the one list the API report
 * (scripts/api-report.ts) and the reference site (scripts/site/) both walk, so a new entry point
 * is reported and documented without being named twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EntryPoint {
  /** The `exports` key: `.`, `./redis`, … */
  readonly subpath: string;
  /** What a user imports: `tollgate`, `tollgate/redis`, … */
  readonly specifier: string;
  /** The API report's name: etc/api/<report>.api.md. */
  readonly report: string;
  /** The entry point's declarations (its `types` condition), absolute. */
  readonly types: string;
  /** The TypeScript source the declarations are built from (`dist/src/x.d.ts` → `src/x.ts`), absolute. */
  readonly source: string;
}

/** Every entry point of `root`'s package.json `exports` that has declarations. */
export function entryPoints(root: string): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' && target !== null ? (target as { types?: unknown }).types : undefined;
    if (typeof types !== 'string') return [];
    const path = subpath.replace(/^\.\/?/, '');
    const source = types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts');
    if (source === types) throw new Error(`package.json exports["${subpath}"].types is not under ./dist/: ${types}`);
    return [
      {
        subpath,
        specifier: path === '' ? pkg.name : `${pkg.name}/${path}`,
        report: path === '' ? pkg.name : `${pkg.name}-${path.replaceAll('/', '-')}`,
        types: join(root, types),
        source: join(root, source),
      },
    ];
  });
}
