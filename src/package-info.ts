/**
 * What the package says of itself, read from its package.json (never typed again): the version
 * and repository that the User-Agent names, as the service asks every client to
 * (`DiscordBot ($url, $versionNumber)`).
 */
import { createRequire } from 'node:module';

interface PackageJson {
  readonly version: string;
  readonly repository?: string | { readonly url: string };
}

// The package's own name resolves to its package.json from src/ and from dist/ alike ("exports").
const manifest = createRequire(import.meta.url)('tollgate/package.json') as PackageJson;

/** The repository's web address: `git+https://…/x.git` → `https://…/x`. */
function repositoryUrl(repository: PackageJson['repository']): string {
  const url = typeof repository === 'string' ? repository : repository?.url;
  if (url === undefined) throw new Error('tollgate: package.json names no repository');
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

export const PACKAGE_VERSION = manifest.version;
export const PACKAGE_URL = repositoryUrl(manifest.repository);
/** The User-Agent every request carries, unless a caller's `userAgentAppendix` adds to it. */
export const USER_AGENT = `DiscordBot (${PACKAGE_URL}, ${PACKAGE_VERSION})`;
