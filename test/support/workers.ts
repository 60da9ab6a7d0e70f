/**
 * Workers for workerd, built as wrangler builds them: esbuild bundles the entry into one ES
 * module for the browser platform with the `workerd`, `worker` and `browser` conditions, leaving
 * the runtime's own `cloudflare:` modules to it. Run in miniflare with no compatibility flag.
 */
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

/** The compatibility date the tests' Workers declare: workerd's own, from the installed package. */
export const COMPATIBILITY_DATE = '2026-07-30';

export interface WorkerBundle {
  readonly code: string;
  /** Minified bytes, and gzipped: what Workers' size limits count. */
  readonly bytes: number;
  readonly gzipBytes: number;
}

const root = join(import.meta.dirname, '..', '..');

/**
 * Imports of `tollgate` and `tollgate/<entry>` (the examples') from the sources: the package's
 * exports name dist/, which a test run has not built. `cloudflare` is its `workerd` condition.
 * Also for bundling the Node.js example (test/interactions/node-example.int.test.ts).
 */
export const tollgateFromSources: Plugin = {
  name: 'tollgate-from-sources',
  setup(build) {
    build.onResolve({ filter: /^tollgate(?:\/[a-z]+)?$/ }, ({ path }) => {
      const entry = path.split('/')[1];
      return { path: join(root, 'src', ...(entry ? [entry] : []), 'index.ts') };
    });
  },
};

/**
 * Bundles `entry` (a file) as wrangler would, minified. `tollgate` resolves to the sources unless
 * `installed`: then to the package installed beside the entry, by its exports' conditions.
 */
export async function bundleWorker(entry: string, { installed = false } = {}): Promise<WorkerBundle> {
  const result = await build({
    plugins: installed ? [] : [tollgateFromSources],
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2024',
    external: ['cloudflare:*'],
    minify: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
  return { code: output.text, bytes: output.contents.byteLength, gzipBytes: gzipSync(output.contents).byteLength };
}
