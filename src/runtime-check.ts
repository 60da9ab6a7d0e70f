/**
 * The Node.js version check, imported first by every entry (`tollgate`, `tollgate/redis`,
 * `tollgate/undici`, `tollgate/testing`, the `tollgate-reference-service` bin). ES modules are
 * evaluated in import order, so on a Node.js older than 22 importing tollgate throws here, with
 * one clear line, before any module that needs Node.js 22 runs (`Map.groupBy`, …).
 *
 * It imports nothing and uses nothing newer than Node.js 14 has, so it runs on any Node.js that
 * loads the package at all. What it cannot catch: a module of the graph that fails to parse or
 * link on the old Node.js (ES modules are linked before any of them runs); test/package checks
 * the packed entries on the machine's older Node.js when it has one.
 */

/** The oldest Node.js major version tollgate runs on (package.json `engines`). */
export const MINIMUM_NODE_MAJOR = 22;

/**
 * Why tollgate cannot run on Node.js `version` (as in `process.versions.node`, e.g. `20.20.2`):
 * one line, or undefined when it can (or when there is no Node.js version to judge: another
 * runtime, or a version that does not start with a number).
 */
export function nodeVersionProblem(version: string | undefined): string | undefined {
  if (version === undefined) return undefined;
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  if (Number.isNaN(major) || major >= MINIMUM_NODE_MAJOR) return undefined;
  return `tollgate needs Node.js ${MINIMUM_NODE_MAJOR} or newer (this is Node.js ${version})`;
}

/** Throws an Error whose message is that one line, when the running Node.js is too old. */
export function assertSupportedNode(version: string | undefined = globalThis.process?.versions?.node): void {
  const problem = nodeVersionProblem(version);
  if (problem !== undefined) throw new Error(problem);
}

assertSupportedNode();
