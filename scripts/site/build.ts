/**
 * Builds the reference site with TypeDoc: converts every entry point, validates, renders. Any
 * warning fails the build (TypeDoc prints each as it finds it), as does anything TypeDoc could
 * not convert.
 */
import { readdirSync } from 'node:fs';
import { Application } from 'typedoc';
import { entryPoints } from '../entry-points.ts';
import { nameEntryModules } from './entry-modules.ts';
import { siteOptions } from './options.ts';
import { resourcePaths } from './resources.ts';

export interface SiteBuild {
  /** False when TypeDoc reported a problem; the site may then be missing or partly written. */
  readonly ok: boolean;
  /** Why it failed, in one line (TypeDoc printed the details above it). */
  readonly problem?: string;
  /** HTML pages written. */
  readonly pages: number;
  readonly seconds: number;
}

/** Builds the site of the package at `root` into `out`. */
export async function buildSite(root: string, out: string): Promise<SiteBuild> {
  const started = performance.now();
  const entries = entryPoints(root);
  const app = await Application.bootstrapWithPlugins(siteOptions(root, entries, out));
  nameEntryModules(app, entries);
  resourcePaths(app);
  const done = (problem?: string): SiteBuild => ({
    ok: problem === undefined,
    ...(problem !== undefined && { problem }),
    pages: problem === undefined ? countPages(out) : 0,
    seconds: (performance.now() - started) / 1000,
  });
  const counted = () =>
    `${app.logger.errorCount} errors, ${app.logger.warningCount} warnings (warnings are errors here)`;
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return done(`the options were refused: ${counted()}`);

  const project = await app.convert();
  if (!project) return done(`TypeDoc could not convert the sources: ${counted()}`);
  app.validate(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return done(`the sources did not validate: ${counted()}`);
  await app.generateOutputs(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return done(`rendering reported problems: ${counted()}`);
  return done();
}

/** The HTML pages under `dir`. */
function countPages(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html')).length;
}
