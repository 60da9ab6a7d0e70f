// @ts-check
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * The layer table: every folder and root file of src/, plus generated/ and scripts/, with what it
 * is for and what it may import (relative imports; packages are not layers). ESLint's
 * `layers/imports` rule (eslint.config.js) enforces it, refusing any import the row does not name
 * and any file of src/ without a row; docs/design.md's layout is drawn from it
 * (`npm run docs:layers`), and test/docs/layers.test.ts keeps the two in step.
 *
 * A folder row ends with `/` and covers everything below it; within a row, files import each
 * other freely.
 */

/** @typedef {{ readonly role: string, readonly imports: readonly string[] }} Layer */

/** The root files every layer may use: leaves that import nothing of src/ (errors.ts: only error-body.ts, a leaf). */
const LEAVES = ['src/errors.ts', 'src/clock.ts'];

/** @type {Readonly<Record<string, Layer>>} */
export const LAYERS = {
  'src/errors.ts': {
    role: 'TollgateError, its codes and the errors every layer raises',
    imports: ['src/error-body.ts'],
  },
  'src/error-body.ts': {
    role: "what Discord's error bodies say (field errors, OAuth2's error), read and shown within bounds",
    imports: [],
  },
  'src/clock.ts': { role: 'the Clock contract: system and monotonic clocks, sleep', imports: [] },
  'src/body.ts': { role: 'reading a response body within a deadline', imports: [] },
  'src/secrets.ts': { role: 'what no error may carry: the token, scrubbed', imports: [] },
  'src/package-info.ts': { role: "the package's identity, and the User-Agent made of it", imports: [] },
  'src/runtime-check.ts': { role: 'one clear error on a runtime too old for tollgate', imports: [] },
  'src/tokens.ts': {
    role: "what a token says of itself: its kind (a bot's or OAuth2's) and a bot's id",
    imports: ['src/contracts/', 'src/paths/'],
  },
  'src/option-shapes.ts': {
    role: 'the zod shapes options are checked by, and the one message style of their errors',
    imports: ['src/errors.ts'],
  },
  'src/contracts/': {
    role: "the seams, no implementations: Dialect, Store, and the catalog's shapes",
    imports: ['src/clock.ts'],
  },
  'src/paths/': {
    role: 'path parameters to URL text, and the path as both dialects classify it',
    imports: ['src/contracts/', 'src/errors.ts'],
  },
  'src/limiter/': {
    role: 'the dialect-free shell: call lifecycle, bucket queues, global gate, ky hooks, events',
    imports: ['src/contracts/', ...LEAVES],
  },
  'src/dialects/': {
    role: 'v6 and v10: rules by spec row, policy, judge, targets, memory views',
    imports: ['src/contracts/', 'src/paths/', 'src/body.ts', 'src/option-shapes.ts', 'src/tokens.ts', ...LEAVES],
  },
  'src/stores/': {
    role: 'MemoryStore, and the fallback view of a shared store',
    imports: ['src/contracts/', ...LEAVES],
  },
  'src/redis/': {
    role: "RedisStore (tollgate/redis): each dialect's scripts and view",
    imports: ['src/contracts/', 'src/dialects/', 'src/stores/', 'src/runtime-check.ts', ...LEAVES],
  },
  'src/cloudflare/': {
    role: 'DurableObjectStore and its object (tollgate/cloudflare)',
    imports: ['src/contracts/', 'src/dialects/', 'src/stores/', 'src/runtime-check.ts', ...LEAVES],
  },
  'src/telemetry/': { role: 'OpenTelemetry spans and metrics', imports: ['src/limiter/', 'src/errors.ts'] },
  'src/cdn/': {
    role: "the CDN URL helpers' options, checks and URLs",
    imports: ['src/contracts/', 'src/paths/', 'src/option-shapes.ts', 'src/errors.ts'],
  },
  'src/sdk.ts': {
    role: 'the building blocks generated/ is made of: the operation caller, method signatures',
    imports: ['src/contracts/', 'src/dialects/'],
  },
  'src/pagination/': { role: "the paged lists' walks", imports: ['src/contracts/', 'src/sdk.ts', 'src/errors.ts'] },
  'src/http/': {
    role: 'createClientWith: options, lanes, encoding, the Sender',
    imports: [
      'src/contracts/',
      'src/limiter/',
      'src/dialects/',
      'src/stores/',
      'src/telemetry/',
      'src/cdn/',
      'src/paths/',
      'src/pagination/',
      'src/sdk.ts',
      'src/body.ts',
      'src/secrets.ts',
      'src/package-info.ts',
      'src/option-shapes.ts',
      'src/tokens.ts',
      ...LEAVES,
    ],
  },
  'src/undici/': { role: 'undiciFetch (tollgate/undici)', imports: ['src/runtime-check.ts', 'src/errors.ts'] },
  'src/index.ts': {
    role: 'the package (tollgate) and the composition root: the one module of src/ that imports generated/',
    imports: [
      'generated/',
      'src/http/',
      'src/contracts/',
      'src/dialects/',
      'src/stores/',
      'src/limiter/',
      'src/cdn/',
      'src/sdk.ts',
      'src/runtime-check.ts',
      ...LEAVES,
    ],
  },
  'src/discordjs/': {
    role: "makeRequest (tollgate/discordjs): @discordjs/rest's requests through a relay",
    imports: ['src/index.ts', 'src/runtime-check.ts'],
  },
  'src/proxy/': {
    role: 'createProxy and `tollgate proxy` (tollgate/proxy): an HTTP front on a relay',
    imports: [
      'src/index.ts',
      'src/redis/',
      'src/http/',
      'src/contracts/',
      'src/option-shapes.ts',
      'src/tokens.ts',
      'src/undici/',
      'src/runtime-check.ts',
      ...LEAVES,
    ],
  },
  'src/interactions/': {
    role: 'receiving interactions over HTTP (tollgate/interactions): the signature check, callback bodies, a handler',
    imports: ['src/runtime-check.ts', 'src/secrets.ts', 'src/errors.ts'],
  },
  'src/testing/': {
    role: "the reference service (tollgate/testing): the package's public entry and the catalog's data, its own classification",
    imports: ['src/index.ts', 'src/contracts/', 'src/runtime-check.ts', 'catalog/', ...LEAVES],
  },
  'generated/': { role: 'npm run generate output only', imports: ['src/sdk.ts', 'src/cdn/'] },
  'scripts/': {
    role: 'generate, catalog sync and replay, the API report, the reference site, the release check, demo, bench: thin entry points',
    imports: ['catalog/', 'bench/', 'layers.js', 'src/'],
  },
};

/**
 * The row of a path relative to the repository (`src/http/client.ts` → `src/http/`), or undefined.
 * @param {string} path
 * @returns {string | undefined}
 */
export function layerOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}/` : path;
  return parts.length > 1 ? `${parts[0]}/` : undefined;
}

/**
 * Whether a file of row `from` may import a file of row `to`.
 * @param {string} from
 * @param {string} to
 */
export function mayImport(from, to) {
  if (from === to) return true;
  const allowed = LAYERS[from]?.imports ?? [];
  // `src/` in a row (scripts/) stands for every row below it.
  return allowed.includes(to) || allowed.some((row) => row.endsWith('/') && to.startsWith(row));
}

const ROOT = import.meta.dirname;

/**
 * `layers/imports`: every relative import of src/, generated/ and scripts/ goes where its row of
 * the layer table (layers.js) allows, and every file of src/ has a row.
 */
/** @type {import('eslint').ESLint.Plugin} */
export const layersPlugin = {
  rules: {
    imports: {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = relative(ROOT, context.filename).split(sep).join('/');
        const from = layerOf(file);
        if (from === undefined || !(from in LAYERS)) {
          return {
            Program: (/** @type {import('estree').Program} */ node) =>
              context.report({ node, message: `${file} has no row in the layer table (layers.js): add one` }),
          };
        }
        /** @param {any} node */
        const check = (node) => {
          const specifier = node.source?.value;
          if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
          const target = relative(ROOT, resolve(dirname(context.filename), specifier))
            .split(sep)
            .join('/');
          const to = layerOf(target) ?? target;
          if (!mayImport(from, to)) {
            context.report({
              node: node.source,
              message: `${from} may not import ${to} (layers.js: ${from} imports ${LAYERS[from]?.imports.join(', ') || 'nothing'})`,
            });
          }
        };
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};
