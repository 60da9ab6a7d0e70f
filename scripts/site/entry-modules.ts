/**
 * Each module of the site is named as a user imports it (`tollgate/redis`, not TypeDoc's
 * `redis/index`), from package.json `exports`, and says what the entry point is for: the first
 * paragraph of its file's leading doc comment, the one place each entry point is described.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Comment, Converter, ReflectionKind, type Application } from 'typedoc';
import type { EntryPoint } from '../entry-points.ts';

/** Names the entry modules of `app`'s next conversion after `entries`. */
export function nameEntryModules(app: Application, entries: readonly EntryPoint[]): void {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const modules = context.project.getChildrenByKind(ReflectionKind.Module);
    for (const entry of entries) {
      const module = modules.find((candidate) =>
        candidate.sources?.some((source) => resolve(source.fullFileName) === entry.source),
      );
      if (!module) throw new Error(`site: no module was made from ${entry.source} (exports["${entry.subpath}"])`);
      module.name = entry.specifier;
      const summary = leadingParagraph(readFileSync(entry.source, 'utf8'));
      if (!module.comment && summary) module.comment = new Comment([{ kind: 'text', text: summary }]);
    }
  });
}

/** The first paragraph of a file's doc comment, when the file starts with one. */
export function leadingParagraph(source: string): string | undefined {
  const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  if (!match) return undefined;
  const lines = match[1]!.split('\n').map((line) => line.replace(/^\s*\*\s?/, '').trimEnd());
  const paragraph = lines
    .join('\n')
    .trim()
    .split(/\n\s*\n/)[0]!;
  return paragraph === '' ? undefined : paragraph;
}
