/**
 * What the package says of itself: the version and repository that the User-Agent names, as the
 * service asks every client to (`DiscordBot ($url, $versionNumber)`). `npm run generate` writes
 * them from package.json (generated/package.ts), so nothing is read at run time.
 */
import { PACKAGE_URL, PACKAGE_VERSION } from '../generated/package.ts';

export { PACKAGE_URL, PACKAGE_VERSION };
/** The User-Agent every request carries, unless a caller's `userAgentAppendix` adds to it. */
export const USER_AGENT = `DiscordBot (${PACKAGE_URL}, ${PACKAGE_VERSION})`;
