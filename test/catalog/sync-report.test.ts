/**
 * The sync's report (scripts/sync/report.ts), whole: the text a person reads after
 * `npm run catalog:sync`, the JSON a tool reads, and the changeset a sync writes. Each is compared
 * line for line: their layout is what they are for.
 */
import { describe, expect, it } from 'vitest';
import type { SurfaceChange } from '../../scripts/sync/gate.ts';
import type { CatalogEdit, CatalogDiff } from '../../scripts/sync/diff.ts';
import { changesetText, reportJson, reportText, semverOf, surfaceLines } from '../../scripts/sync/report.ts';

const edits = (count: number) => Array.from({ length: count }, () => ({}) as CatalogEdit);

/** A diff with something in every list. */
const FULL: CatalogDiff = {
  build: '1.2.3',
  documentOperations: 262,
  linked: [{ name: 'guilds.get', operationId: 'get_guild' }],
  added: [
    {
      operationId: 'create_poll',
      method: 'POST',
      path: '/channels/{channel_id}/polls',
      name: 'channels.polls.create',
      routeKey: 'ChannelsIdPolls',
      newRoute: true,
      collision: 'channels.polls.create was taken by a hand-kept operation',
      notes: ['a token in the path'],
    },
    {
      operationId: 'list_polls',
      method: 'GET',
      path: '/channels/{channel_id}/polls',
      name: 'channels.polls.list',
      routeKey: 'ChannelsIdPolls',
      newRoute: false,
      notes: [],
    },
  ],
  newParameters: { poll_id: 'snowflake', secret: 'secret' },
  removed: [
    { name: 'a.gone', operationId: 'gone', method: 'DELETE', path: '/a', action: 'pruned' },
    { name: 'b.old', operationId: 'old', method: 'GET', path: '/b', action: 'deprecated', renamedTo: 'b.new' },
    { name: 'c.older', operationId: 'older', method: 'PATCH', path: '/c', action: 'still removed' },
  ],
  restored: [{ name: 'd.back', operationId: 'back' }],
  changed: [
    {
      name: 'guilds.get',
      operationId: 'get_guild',
      changes: [
        { fact: 'query', from: 'with_counts', to: 'with_counts, with_roles' },
        { fact: 'queryRequired', from: 'optional', to: 'required' },
      ],
    },
  ],
  kept: [{ name: 'users.me', fact: 'unauthenticated', reason: 'the seed says so', catalog: 'false', document: 'true' }],
  conflicts: ['guilds.edit: the catalog keeps a body the document removed'],
  handKept: 7,
  edits: edits(5),
} as unknown as CatalogDiff;

/** A diff with nothing to do. */
const EMPTY: CatalogDiff = {
  build: '1.2.3',
  documentOperations: 262,
  linked: [],
  added: [],
  newParameters: {},
  removed: [],
  restored: [],
  changed: [],
  kept: [],
  conflicts: [],
  handKept: 7,
  edits: [],
};

const SURFACE: SurfaceChange[] = [
  { method: 'channels.polls.create', change: 'added', detail: 'new method' },
  { method: 'guilds.get', change: 'breaking', detail: 'query is required' },
  { method: 'a', change: 'additive', detail: 'accepts with_roles' },
  { method: 'b.old', change: 'renamed', detail: 'now b.new' },
  { method: 'c.older', change: 'deprecated', detail: 'removed in 1.2.3' },
];

describe('the report as text', () => {
  it('a diff with every list: each section, each line as laid out', () => {
    expect(reportText(FULL, 'write', SURFACE).split('\n')).toEqual([
      "catalog:sync against build 1.2.3 of Discord's OpenAPI document (262 operations)",
      '',
      'linked   1 catalog operations to their operationId (matched by method and path)',
      '',
      'added    2',
      '  + POST   /channels/{channel_id}/polls  →  channels.polls.create  (new route ChannelsIdPolls; create_poll)',
      '      name collision: channels.polls.create was taken by a hand-kept operation',
      '      review: a token in the path',
      '  + GET    /channels/{channel_id}/polls  →  channels.polls.list  (route ChannelsIdPolls; list_polls)',
      '  new path parameters: {poll_id} (snowflake), {secret} (secret)',
      '',
      'removed  3',
      '  - DELETE /a  a.gone  (gone; deleted (--prune))',
      '  - GET    /b  b.old  (old; deprecated: still callable, removedIn 1.2.3; moved: now b.new)',
      '  - PATCH  /c  c.older  (older; already deprecated)',
      '  ↺ d.back (back) is in the document again: no longer deprecated',
      '',
      'changed  1',
      '  ~ guilds.get  query: with_counts  →  with_counts, with_roles',
      '  ~ guilds.get  queryRequired: optional  →  required',
      '',
      "kept by hand  1 (the catalog's `keep`; the document says otherwise)",
      '  = users.me  unauthenticated: false (document: true) — the seed says so',
      '',
      'conflicts  1 (a person must settle these)',
      '  ! guilds.edit: the catalog keeps a body the document removed',
      '',
      "kept by hand, not in the document: 7 catalog operations (the seed's v6 routes, user-only and documented-only ones)",
      '',
      'public API  5 changes of methods (semver: major)',
      '  + channels.polls.create  added: new method',
      '  ! guilds.get             breaking: query is required',
      '  ~ a                      additive: accepts with_roles',
      '  > b.old                  renamed: now b.new',
      '  - c.older                deprecated: removed in 1.2.3',
      '',
      'catalog/routes.ts: 5 edits. Review drafted names, then run `npm run generate`.',
      'A person must settle the conflicts above: the catalog says what the document does not.',
      '',
    ]);
  });

  it('a diff with nothing to do: the lists it always shows, at 0, and none of the others', () => {
    expect(reportText(EMPTY, 'check')).toBe(
      [
        "catalog:sync against build 1.2.3 of Discord's OpenAPI document (262 operations)",
        '',
        'added    0',
        '',
        'removed  0',
        '',
        'changed  0',
        '',
        "kept by hand, not in the document: 7 catalog operations (the seed's v6 routes, user-only and documented-only ones)",
        '',
        'The catalog follows the document.',
        '',
      ].join('\n'),
    );
  });

  it('its last line, by what the run did', () => {
    const last = (diff: CatalogDiff, mode: 'write' | 'check' | 'failed') =>
      reportText(diff, mode).trimEnd().split('\n');
    expect(last({ ...EMPTY, edits: edits(2) }, 'failed').at(-1)).toBe(
      'Nothing written: the 2 edits above were not made (why: below).',
    );
    expect(last({ ...EMPTY, edits: edits(2) }, 'check').at(-1)).toBe(
      'The catalog is behind the document: `npm run catalog:sync` would make 2 edits.',
    );
    expect(last({ ...EMPTY, edits: edits(2) }, 'write').at(-1)).toBe(
      'catalog/routes.ts: 2 edits. Review drafted names, then run `npm run generate`.',
    );
    expect(last({ ...EMPTY, conflicts: ['x'] }, 'write').slice(-2)).toEqual([
      'Nothing to edit.',
      'A person must settle the conflicts above: the catalog says what the document does not.',
    ]);
    expect(last({ ...EMPTY, conflicts: ['x'] }, 'failed').at(-2)).toBe(
      'Nothing written: the 0 edits above were not made (why: below).',
    );
  });

  it('an empty public API change list: one line, semver patch', () => {
    expect(surfaceLines([])).toEqual(['public API  0 changes of methods (semver: patch)']);
    expect(reportText(EMPTY, 'write', [])).toContain('\n\npublic API  0 changes of methods (semver: patch)\n\n');
  });
});

describe('the semver class of a sync', () => {
  it('major with any breaking change, minor with any other, patch with none', () => {
    expect(semverOf(SURFACE)).toBe('major');
    expect(semverOf(SURFACE.filter((change) => change.change !== 'breaking'))).toBe('minor');
    for (const change of ['added', 'additive', 'renamed', 'deprecated'] as const) {
      expect(semverOf([{ method: 'm', change, detail: '' }]), change).toBe('minor');
    }
    expect(semverOf([])).toBe('patch');
  });
});

describe('the report as JSON', () => {
  it('every list as it is, the edits counted, the public API with its class only when given', () => {
    expect(JSON.parse(reportJson(FULL, 'check', SURFACE))).toEqual({
      mode: 'check',
      ...JSON.parse(JSON.stringify(FULL)),
      edits: 5,
      api: { semver: 'major', changes: SURFACE },
    });
    const bare = JSON.parse(reportJson(EMPTY, 'failed'));
    expect(bare).not.toHaveProperty('api');
    expect(bare).toMatchObject({ mode: 'failed', edits: 0 });
    // Indented by two, one newline at the end.
    expect(reportJson(EMPTY, 'write')).toMatch(/^\{\n {2}"mode": "write",\n[\s\S]*\n\}\n$/);
  });
});

describe('the changeset a sync writes', () => {
  it('front matter with the quoted package name and its bump, then the build, then each kind of change', () => {
    expect(changesetText('@scope/pkg', FULL, SURFACE)).toBe(
      [
        '---',
        '"@scope/pkg": major',
        '---',
        '',
        "Follows build 1.2.3 of Discord's OpenAPI document (`npm run catalog:sync`).",
        '',
        '**Breaking** (a call that compiled may not):',
        '- `guilds.get`: query is required',
        '',
        'Added:',
        '- `channels.polls.create`: new method',
        '',
        'Accepts more:',
        '- `a`: accepts with_roles',
        '',
        'Renamed:',
        '- `b.old`: now b.new',
        '',
        'Deprecated:',
        '- `c.older`: removed in 1.2.3',
        '',
      ].join('\n'),
    );
  });

  it('no public change: a patch, and a sentence that says where the change is', () => {
    expect(changesetText('tollgate', EMPTY, [])).toBe(
      [
        '---',
        '"tollgate": patch',
        '---',
        '',
        "Follows build 1.2.3 of Discord's OpenAPI document (`npm run catalog:sync`).",
        '',
        'No method was added, renamed or deprecated, and each accepts what it accepted: the change is in',
        "results' types, documentation or how calls are sent.",
        '',
      ].join('\n'),
    );
  });
});
