/**
 * What the package says of itself, for `generated/package.ts`: its version and repository, read
 * from package.json when generating (so the runtime reads no file and imports nothing from
 * `node:`; `generate --check` fails when package.json moved on without it).
 */

export interface PackageManifest {
  readonly version?: unknown;
  readonly repository?: string | { readonly url?: unknown };
}

export interface PackageInfo {
  readonly version: string;
  /** The repository's web address. */
  readonly url: string;
}

/** `git+https://…/x.git` → `https://…/x`. */
export function packageInfoOf(manifest: PackageManifest): PackageInfo {
  const repository = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (typeof manifest.version !== 'string' || typeof repository !== 'string') {
    throw new Error('generate: package.json needs a version and a repository');
  }
  return { version: manifest.version, url: repository.replace(/^git\+/, '').replace(/\.git$/, '') };
}

/** `generated/package.ts`. */
export const packageFile = ({ version, url }: PackageInfo): string =>
  [
    "/** The package's version and repository, from package.json (the User-Agent names them). */",
    `export const PACKAGE_VERSION = ${JSON.stringify(version)};`,
    `export const PACKAGE_URL = ${JSON.stringify(url)};`,
    '',
  ].join('\n');
