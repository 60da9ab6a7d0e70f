/**
 * The sync's report: what it added, removed and changed, what it kept and what a person must
 * settle. As text for people, or as JSON for tools (the diff without its edits). Pure.
 */
import type { SurfaceChange } from './gate.ts';
import type { CatalogDiff } from './diff.ts';

/** What a run did: wrote, only checked, or stopped before writing (the report says why on stderr). */
export type ReportMode = 'write' | 'check' | 'failed';

/**
 * What a set of public changes means for a release: a breaking change is `major`, an addition
 * (or a deprecation, a rename that keeps the name) `minor`, nothing public `patch`.
 */
export function semverOf(surface: readonly SurfaceChange[]): 'major' | 'minor' | 'patch' {
  if (surface.some((change) => change.change === 'breaking')) return 'major';
  return surface.length > 0 ? 'minor' : 'patch';
}

/** The diff as tools read it: every list, the public API's changes, and the number of edits. */
export function reportJson(diff: CatalogDiff, mode: ReportMode, surface?: readonly SurfaceChange[]): string {
  const api = surface && { api: { semver: semverOf(surface), changes: surface } };
  return `${JSON.stringify({ mode, ...diff, edits: diff.edits.length, ...api }, null, 2)}\n`;
}

const SURFACE_MARK: Record<SurfaceChange['change'], string> = {
  added: '+',
  additive: '~',
  breaking: '!',
  renamed: '>',
  deprecated: '-',
};

/** The public API's changes, one line each, `breaking` spelled out beside each such method. */
export function surfaceLines(surface: readonly SurfaceChange[]): string[] {
  const width = Math.max(0, ...surface.map((change) => change.method.length));
  return [
    `public API  ${surface.length} changes of methods (semver: ${semverOf(surface)})`,
    ...surface.map(
      (change) => `  ${SURFACE_MARK[change.change]} ${change.method.padEnd(width)}  ${change.change}: ${change.detail}`,
    ),
  ];
}

export function reportText(diff: CatalogDiff, mode: ReportMode, surface?: readonly SurfaceChange[]): string {
  const lines: string[] = [];
  lines.push(
    `catalog:sync against build ${diff.build} of Discord's OpenAPI document (${diff.documentOperations} operations)`,
  );
  if (diff.linked.length > 0) {
    lines.push(
      '',
      `linked   ${diff.linked.length} catalog operations to their operationId (matched by method and path)`,
    );
  }
  lines.push('', `added    ${diff.added.length}`);
  for (const added of diff.added) {
    const route = added.newRoute ? `new route ${added.routeKey}` : `route ${added.routeKey}`;
    lines.push(`  + ${added.method.padEnd(6)} ${added.path}  →  ${added.name}  (${route}; ${added.operationId})`);
    if (added.collision) lines.push(`      name collision: ${added.collision}`);
    for (const note of added.notes) lines.push(`      review: ${note}`);
  }
  const newParameters = Object.entries(diff.newParameters);
  if (newParameters.length > 0) {
    lines.push(`  new path parameters: ${newParameters.map(([name, kind]) => `{${name}} (${kind})`).join(', ')}`);
  }
  lines.push('', `removed  ${diff.removed.length}`);
  for (const removed of diff.removed) {
    const action =
      removed.action === 'pruned'
        ? 'deleted (--prune)'
        : removed.action === 'deprecated'
          ? `deprecated: still callable, removedIn ${diff.build}`
          : 'already deprecated';
    const renamed = removed.renamedTo ? `; moved: now ${removed.renamedTo}` : '';
    lines.push(
      `  - ${removed.method.padEnd(6)} ${removed.path}  ${removed.name}  (${removed.operationId}; ${action}${renamed})`,
    );
  }
  for (const restored of diff.restored) {
    lines.push(`  ↺ ${restored.name} (${restored.operationId}) is in the document again: no longer deprecated`);
  }
  lines.push('', `changed  ${diff.changed.length}`);
  for (const changed of diff.changed) {
    for (const change of changed.changes) {
      lines.push(`  ~ ${changed.name}  ${change.fact}: ${change.from}  →  ${change.to}`);
    }
  }
  if (diff.kept.length > 0) {
    lines.push('', `kept by hand  ${diff.kept.length} (the catalog's \`keep\`; the document says otherwise)`);
    for (const kept of diff.kept) {
      lines.push(`  = ${kept.name}  ${kept.fact}: ${kept.catalog} (document: ${kept.document}) — ${kept.reason}`);
    }
  }
  if (diff.conflicts.length > 0) {
    lines.push('', `conflicts  ${diff.conflicts.length} (a person must settle these)`);
    for (const conflict of diff.conflicts) lines.push(`  ! ${conflict}`);
  }
  lines.push(
    '',
    `kept by hand, not in the document: ${diff.handKept} catalog operations (the seed's v6 routes, user-only and documented-only ones)`,
  );
  if (surface) lines.push('', ...surfaceLines(surface));
  const edits = diff.edits.length;
  lines.push(
    '',
    mode === 'failed'
      ? `Nothing written: the ${edits} edits above were not made (why: below).`
      : edits === 0
        ? diff.conflicts.length > 0
          ? 'Nothing to edit.'
          : 'The catalog follows the document.'
        : mode === 'check'
          ? `The catalog is behind the document: \`npm run catalog:sync\` would make ${edits} edits.`
          : `catalog/routes.ts: ${edits} edits. Review drafted names, then run \`npm run generate\`.`,
  );
  if (diff.conflicts.length > 0) {
    lines.push('A person must settle the conflicts above: the catalog says what the document does not.');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The release note of a sync, as a changeset (`.changeset/*.md`, which `changeset version` reads
 * into the next version and CHANGELOG.md): front matter naming the package and its bump, the
 * semver class of what the public API did (patch when no method's arguments changed), then the
 * summary: the build followed, and the methods by kind of change.
 */
export function changesetText(packageName: string, diff: CatalogDiff, surface: readonly SurfaceChange[]): string {
  const section = (kind: SurfaceChange['change'], title: string) => {
    const changes = surface.filter((change) => change.change === kind);
    if (changes.length === 0) return [];
    return [`${title}:`, ...changes.map((change) => `- \`${change.method}\`: ${change.detail}`), ''];
  };
  return [
    '---',
    // A JSON string is a YAML string: a scoped name (`@scope/name`) needs its quotes.
    `${JSON.stringify(packageName)}: ${semverOf(surface)}`,
    '---',
    '',
    `Follows build ${diff.build} of Discord's OpenAPI document (\`npm run catalog:sync\`).`,
    '',
    ...(surface.length === 0
      ? [
          'No method was added, renamed or deprecated, and each accepts what it accepted: the change is in',
          "results' types, documentation or how calls are sent.",
          '',
        ]
      : []),
    ...section('breaking', '**Breaking** (a call that compiled may not)'),
    ...section('added', 'Added'),
    ...section('additive', 'Accepts more'),
    ...section('renamed', 'Renamed'),
    ...section('deprecated', 'Deprecated'),
  ].join('\n');
}
