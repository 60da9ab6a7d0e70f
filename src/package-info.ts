/**
 * What the package says of itself: the version and repository that the User-Agent names, as the
 * service asks every client to (`DiscordBot ($url, $versionNumber)`). `npm run generate` writes
 * them from package.json (generated/package.ts), so nothing is read at run time; `src/index.ts`
 * hands them to the core.
 */
export interface PackageInfo {
  readonly version: string;
  readonly url: string;
}

/** The User-Agent every request carries, unless a caller's `userAgentAppendix` adds to it. */
export const userAgentOf = (info: PackageInfo): string => `DiscordBot (${info.url}, ${info.version})`;
