/**
 * The generator as a function: validate the catalog, emit in memory, then compare with or write
 * to the output folder. Nothing is written unless the whole catalog is valid and emitted.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { parseCatalog } from '../../catalog/schema.ts';
import { asOpenApiDocument } from '../sync/openapi.ts';
import { ARCHIVE_FILE, type Archive } from './archive.ts';
import { emitGenerated } from './emit.ts';
import { packageInfoOf, type PackageManifest } from './package-info.ts';
import { buildModel, type CatalogModel } from './model.ts';

export interface GenerateOptions {
  /** The catalog (unvalidated: it is checked here). */
  readonly catalog: unknown;
  readonly outDir: string;
  /** Compare only: report what differs, write nothing. */
  readonly check: boolean;
  /** Where prettier's configuration is looked up. */
  readonly configFile: string;
  /** Discord's OpenAPI document the catalog follows; default: the pinned one. */
  readonly document?: unknown;
  /** The archive of removed operations (archive.ts); default: the pinned one, beside the document. */
  readonly archive?: Archive;
}

/** The pinned document (`catalog/discord-openapi/openapi.json`): the source of `spec-types.ts`. */
export const PINNED_DOCUMENT = fileURLToPath(new URL('../../catalog/discord-openapi/openapi.json', import.meta.url));

/** The archive in a pinned folder, or none where the folder has no `removed.json`. */
export async function readArchive(pinnedDir: string): Promise<Archive> {
  const text = await readFile(join(pinnedDir, ARCHIVE_FILE), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text === undefined ? {} : (JSON.parse(text) as Archive);
}

export interface GenerateResult {
  readonly routeKeys: number;
  readonly operations: number;
  /** CDN endpoints, each a URL helper (`cdn.userAvatar`). */
  readonly cdnEndpoints: number;
  readonly files: number;
  /** Files that differ from what the catalog produces (missing, out of date, or extra). */
  readonly differences: readonly string[];
}

/** What `generated/` would hold for a catalog, file by file, in memory: nothing is written. */
export async function renderGenerated(
  options: Pick<GenerateOptions, 'catalog' | 'configFile' | 'document' | 'archive'> & {
    /** Run prettier over the files (default); the sync's build gate reads them unformatted. */
    readonly format?: boolean;
  },
): Promise<{ readonly model: CatalogModel; readonly files: ReadonlyMap<string, string> }> {
  const model = buildModel(parseCatalog(options.catalog));
  const prettierOptions = (await prettier.resolveConfig(options.configFile)) ?? {};
  const document = asOpenApiDocument(options.document ?? JSON.parse(await readFile(PINNED_DOCUMENT, 'utf8')));
  const manifest = JSON.parse(await readFile(options.configFile, 'utf8')) as PackageManifest;
  const archive = options.archive ?? (await readArchive(dirname(PINNED_DOCUMENT)));
  const files = await emitGenerated(
    model,
    options.format === false ? false : prettierOptions,
    document,
    packageInfoOf(manifest),
    archive,
  );
  return { model, files };
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { model, files } = await renderGenerated(options);
  const existing = await readdir(options.outDir).catch(() => [] as string[]);

  const differences: string[] = [];
  for (const [name, text] of files) {
    const current = await readFile(join(options.outDir, name), 'utf8').catch(() => undefined);
    if (current !== text) differences.push(current === undefined ? `${name} (missing)` : `${name} (out of date)`);
  }
  const extra = existing.filter((name) => !files.has(name));
  differences.push(...extra.map((name) => `${name} (not produced by the catalog)`));

  if (!options.check) {
    await mkdir(options.outDir, { recursive: true });
    for (const [name, text] of files) await writeFile(join(options.outDir, name), text);
    for (const name of extra) await rm(join(options.outDir, name), { recursive: true });
  }
  return {
    routeKeys: model.routes.length,
    operations: model.operations.length,
    cdnEndpoints: model.cdn.endpoints.length,
    files: files.size,
    differences,
  };
}
