/**
 * The runtime check, imported first by every entry (`tollgate`, `tollgate/redis`,
 * `tollgate/undici`, `tollgate/testing`, the `tollgate-reference-service` bin). ES modules are
 * evaluated in import order, so on a runtime too old for tollgate importing it throws here, with
 * one clear line, before any module that needs a newer one runs (`Map.groupBy`, …).
 *
 * It imports nothing and uses nothing newer than Node.js 14 has, so it runs on any runtime that
 * loads the package at all. What it cannot catch: a module of the graph that fails to parse or
 * link on the old runtime (ES modules are linked before any of them runs); test/package checks
 * the packed entries on the machine's older Node.js when it has one.
 *
 * Runtimes that name no version here (workerd, which Cloudflare Workers run on) pass: tollgate's
 * core needs only the web platform they have.
 */

/** The oldest Node.js major version tollgate runs on (package.json `engines`). */
export const MINIMUM_NODE_MAJOR = 22;

/** The oldest version of each runtime tollgate runs on, as [major, minor]. */
export const MINIMUM_VERSIONS = {
  node: [MINIMUM_NODE_MAJOR, 0],
  bun: [1, 2],
  deno: [2, 0],
} as const satisfies Record<string, readonly [number, number]>;

const RUNTIME_NAMES = { node: 'Node.js', bun: 'Bun', deno: 'Deno' } as const;

/** The versions a runtime reports of itself (Bun and Deno report a Node.js version too). */
export interface RuntimeVersions {
  readonly node?: string | undefined;
  readonly bun?: string | undefined;
  readonly deno?: string | undefined;
}

/** The running runtime's versions, read from `process.versions` and `Deno.version`. */
export function currentRuntime(): RuntimeVersions {
  const versions = globalThis.process?.versions;
  const deno = (globalThis as { Deno?: { version?: { deno?: string } } }).Deno;
  return { node: versions?.node, bun: versions?.bun, deno: deno?.version?.deno };
}

/**
 * Why tollgate cannot run on this runtime: one line, or undefined when it can (or when there is
 * no version to judge: workerd, or a version that does not start with a number). Bun and Deno are
 * judged by their own version, not by the Node.js version they emulate.
 */
export function runtimeProblem(runtime: RuntimeVersions): string | undefined {
  const { bun, deno } = runtime;
  const kind = bun !== undefined ? 'bun' : deno !== undefined ? 'deno' : 'node';
  const version = runtime[kind];
  if (version === undefined) return undefined;
  const [major, minor] = version
    .replace(/^v/, '')
    .split('.')
    .map((part) => Number.parseInt(part, 10));
  if (major === undefined || Number.isNaN(major)) return undefined;
  const [leastMajor, leastMinor] = MINIMUM_VERSIONS[kind];
  if (major > leastMajor || (major === leastMajor && (Number.isNaN(minor) || (minor ?? 0) >= leastMinor))) {
    return undefined;
  }
  const least = kind === 'node' ? `${leastMajor}` : `${leastMajor}.${leastMinor}`;
  const name = RUNTIME_NAMES[kind];
  return `tollgate needs ${name} ${least} or newer (this is ${name} ${version})`;
}

/** Why tollgate cannot run on Node.js `version` (as in `process.versions.node`, e.g. `20.20.2`). */
export const nodeVersionProblem = (version: string | undefined): string | undefined =>
  runtimeProblem({ node: version });

/** Throws an Error whose message is that one line, when the running runtime is too old. */
export function assertSupportedRuntime(runtime: RuntimeVersions = currentRuntime()): void {
  const problem = runtimeProblem(runtime);
  if (problem !== undefined) throw new Error(problem);
}

assertSupportedRuntime();
