/**
 * Discord's published history of its OpenAPI document, for replay tests: the builds of
 * `specs/openapi.json` (discord/discord-api-spec) since 2024 whose operations differ from the
 * build before, oldest first, the pinned one (catalog/discord-openapi/) among them. The fixture,
 * test/fixtures/openapi-history/, is written by scripts/openapi-history.ts; its manifest.json
 * lists every build of the range, kept or not, and why.
 *
 * `document` is what `JSON.parse` makes of the build's file, as the catalog sync reads it
 * (integers past 2^53 rounded); `text()` is the file itself, byte for byte (its git blob id is in
 * the manifest).
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import type { OpenApiDocument } from './openapi.ts';

const DIR = new URL('../../test/fixtures/openapi-history/', import.meta.url);

export interface HistoryBuild {
  /** The number in the commit title ("Automated spec update (212061)"), or the short commit hash. */
  readonly build: string;
  readonly commit: string;
  /** The commit's date, UTC: `YYYY-MM-DD`. */
  readonly date: string;
  readonly document: OpenApiDocument;
  /** The build's specs/openapi.json, byte for byte (its numbers as written). */
  text(): string;
}

export interface ManifestBuild {
  readonly build: string;
  readonly commit: string;
  readonly date: string;
  /** The file's git blob id (`git rev-parse <commit>:specs/openapi.json`). */
  readonly blob: string;
  /** In the fixture, so `history()` yields it. */
  readonly selected: boolean;
  readonly why: string;
}

/** The kept builds, oldest first, each parsed only when reached. */
export async function* history(): AsyncGenerator<HistoryBuild> {
  const ndjson = await promisify(brotliDecompress)(await readFile(new URL('openapi-history.ndjson.br', DIR)));
  for (const line of ndjson.toString('utf8').split('\n')) {
    if (line === '') continue;
    const { build, commit, date, document } = JSON.parse(line) as Omit<HistoryBuild, 'text'>;
    yield { build, commit, date, document, text: () => exactText(line) };
  }
}

/** The kept builds, oldest first. */
export async function readHistory(): Promise<HistoryBuild[]> {
  const builds: HistoryBuild[] = [];
  for await (const build of history()) builds.push(build);
  return builds;
}

/** Every build of the range, kept or not, oldest first. */
export async function readManifest(): Promise<ManifestBuild[]> {
  return (JSON.parse(await readFile(new URL('manifest.json', DIR), 'utf8')) as { builds: ManifestBuild[] }).builds;
}

/** The line's document as its file was: numbers as written (JSON.rawJSON), two-space indents. */
function exactText(line: string): string {
  const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;
  const reviver = (_key: string, value: unknown, context: { source: string }) =>
    typeof value === 'number' ? rawJSON(context.source) : value;
  return JSON.stringify((JSON.parse(line, reviver as never) as { document: unknown }).document, null, 2);
}
