/**
 * The reviewed report of the package's public surface: one etc/api/<name>.api.md per entry point
 * of package.json `exports` (`.` → tollgate.api.md, `./redis` → tollgate-redis.api.md, …), made
 * by API Extractor from the declarations in dist/ with the settings of api-extractor.json.
 *
 * `npm run api:report`: builds, then writes the reports that changed (and deletes the reports of
 * entry points that are gone).
 * `npm run api:check` (CI): writes nothing under etc/; fails naming each entry point whose surface
 * differs from its report, with the difference. Both read dist/ as it is: `node
 * scripts/api-report.ts [--check]` needs a current `npm run build`, which the npm scripts run first.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CompilerState,
  ConsoleMessageId,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
} from '@microsoft/api-extractor';
import { entryPoints, type EntryPoint } from './entry-points.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(root, 'api-extractor.json');
const packageJsonFile = join(root, 'package.json');
const reportFolder = join(root, 'etc', 'api');
/** Lines of a report's difference shown per entry point; the rest is counted. */
const DIFF_LINES = 200;

function main(argv: readonly string[]): number {
  const unknown = argv.filter((arg) => arg !== '--check');
  if (unknown.length > 0) {
    console.error(`api-report: unknown argument(s) ${unknown.join(' ')}; usage: api-report [--check]`);
    return 2;
  }
  const check = argv.includes('--check');
  const started = performance.now();
  const all = entryPoints(root);
  if (!declarationsBuilt(all)) return 1;

  if (!check) mkdirSync(reportFolder, { recursive: true });
  const reports = extractReports(all, check);
  const stale = staleReports(all, check);
  const took = `${all.length} entry points, ${((performance.now() - started) / 1000).toFixed(1)} s`;
  return verdict(reports, stale, check, took);
}

/** Whether dist/ has every entry point's declarations; names those it lacks when not. */
function declarationsBuilt(all: readonly EntryPoint[]): boolean {
  const missing = all.filter((entry) => !existsSync(entry.types));
  if (missing.length === 0) return true;
  console.error(
    `api-report: no declarations for ${missing.map((entry) => `${entry.subpath} (${relative(root, entry.types)})`).join(', ')}; run \`npm run build\` first`,
  );
  return false;
}

/** What API Extractor made of every entry point: the problems it reported, and the reports that changed. */
interface Reports {
  readonly problems: readonly string[];
  /** Entry points whose report changed (written, or with --check, differing). */
  readonly changed: readonly EntryPoint[];
}

/** Runs API Extractor on every entry point in turn, printing a line each (and with --check, the difference). */
function extractReports(all: readonly EntryPoint[], check: boolean): Reports {
  const base = ExtractorConfig.loadFile(configFile);
  const configs = all.map((entry) =>
    ExtractorConfig.prepare({
      configObject: {
        ...base,
        mainEntryPointFilePath: entry.types,
        apiReport: { ...base.apiReport!, reportFileName: entry.report },
      },
      configObjectFullPath: configFile,
      packageJsonFullPath: packageJsonFile,
    }),
  );
  // One program for every entry point: the declarations are read and bound once.
  const compilerState = CompilerState.create(configs[0]!, { additionalEntryPoints: all.map((entry) => entry.types) });
  const problems: string[] = [];
  const changed: EntryPoint[] = [];
  all.forEach((entry, index) => {
    const report = extractReport(entry, configs[index]!, compilerState, check);
    problems.push(...report.problems);
    if (report.changed) changed.push(entry);
  });
  return { problems, changed };
}

/** One entry point's report: written, or with --check compared; its line (and difference) printed. */
function extractReport(
  entry: EntryPoint,
  config: ExtractorConfig,
  compilerState: CompilerState,
  check: boolean,
): { readonly changed: boolean; readonly problems: readonly string[] } {
  const problems: string[] = [];
  let diff = '';
  let created = false;
  const result = Extractor.invoke(config, {
    localBuild: !check,
    compilerState,
    printApiReportDiff: check,
    messageCallback: (message: ExtractorMessage) => {
      message.handled = true;
      if (message.messageId === ConsoleMessageId.ApiReportDiff) diff = message.text;
      else if (message.messageId === ConsoleMessageId.ApiReportCreated) created = true;
      else if (isProblem(message)) problems.push(`${entry.subpath}: ${message.formatMessageWithLocation(root)}`);
    },
  });
  const file = `etc/api/${entry.report}.api.md`;
  const status = !result.apiReportChanged
    ? 'unchanged'
    : check
      ? existsSync(join(root, file))
        ? 'DIFFERS'
        : 'MISSING'
      : created
        ? 'created'
        : 'updated';
  console.log(`  ${entry.subpath.padEnd(14)} ${file.padEnd(36)} ${status}`);
  if (result.apiReportChanged && check && diff !== '') console.log(indent(truncate(diff)));
  return { changed: result.apiReportChanged, problems };
}

/** Reports in etc/api/ of entry points that are gone: printed, and deleted unless --check. */
function staleReports(all: readonly EntryPoint[], check: boolean): string[] {
  const expected = new Set(all.map((entry) => `${entry.report}.api.md`));
  const stale = existsSync(reportFolder)
    ? readdirSync(reportFolder).filter((file) => file.endsWith('.api.md') && !expected.has(file))
    : [];
  for (const file of stale) {
    console.log(`  ${'(no entry)'.padEnd(14)} ${`etc/api/${file}`.padEnd(36)} ${check ? 'STALE' : 'deleted'}`);
    if (!check) rmSync(join(reportFolder, file));
  }
  return stale;
}

/** The run's last word and exit code: API Extractor's problems, else what was written, or with --check, what differs. */
function verdict(reports: Reports, stale: readonly string[], check: boolean, took: string): number {
  if (reports.problems.length > 0) {
    console.error(
      `\napi-report: API Extractor reported problems (see api-extractor.json):\n  ${reports.problems.join('\n  ')}`,
    );
    return 1;
  }
  if (!check) {
    console.log(`etc/api/: ${reports.changed.length + stale.length} report(s) written or deleted (${took})`);
    return 0;
  }
  if (reports.changed.length === 0 && stale.length === 0) {
    console.log(`etc/api/ matches the public API (${took})`);
    return 0;
  }
  const named = [
    ...reports.changed.map((entry) => `${entry.specifier} (etc/api/${entry.report}.api.md)`),
    ...stale.map((file) => `etc/api/${file} (no such entry point)`),
  ];
  console.error(
    `\nThe public API differs from its reviewed report in etc/api/ for: ${named.join(', ')}.\n` +
      'If the change is intended, run `npm run api:report` and commit etc/api/ with it; otherwise undo the change.',
  );
  return 1;
}

/** A warning or error of the analysis; the notes on the report itself are this script's to tell. */
function isProblem(message: ExtractorMessage): boolean {
  const severe = message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning;
  const aboutTheReport = [
    ConsoleMessageId.ApiReportNotCopied,
    ConsoleMessageId.ApiReportCopied,
    ConsoleMessageId.ApiReportCreated,
  ] as string[];
  return severe && !aboutTheReport.includes(message.messageId);
}

function truncate(diff: string): string {
  const lines = diff.trimEnd().split('\n');
  if (lines.length <= DIFF_LINES) return lines.join('\n');
  return [...lines.slice(0, DIFF_LINES), `… ${lines.length - DIFF_LINES} more lines`].join('\n');
}

function indent(text: string): string {
  return text.replace(/^/gm, '      ');
}

process.exitCode = main(process.argv.slice(2));
