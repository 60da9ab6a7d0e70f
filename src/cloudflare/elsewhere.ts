/**
 * `tollgate/cloudflare` outside workerd: the package's `default` condition for the entry, whose
 * `workerd` condition (which wrangler and esbuild's workerd bundles pick) is `index.ts`. The
 * Durable Object class extends workerd's own `cloudflare:workers` module, which no other runtime
 * has, so elsewhere the import fails at once with one line instead of a module not found.
 */
import '../runtime-check.ts'; // first: on a runtime too old for tollgate, one clear error before anything else runs

throw new Error(
  "tollgate/cloudflare runs in workerd (Cloudflare Workers) only, bundled with the 'workerd' condition as wrangler does; elsewhere use MemoryStore or tollgate/redis",
);
