/**
 * `generated/README.md`: every operation with its route key, path, method of the client,
 * operationId and where its types come from; the paged lists and their iterators; the CDN's
 * helpers (`cdn.ts`).
 */
import { cdnReadme } from './cdn.ts';
import type { CatalogModel, OperationModel } from './model.ts';
import type { SpecTypeNames } from './spec-types.ts';

/** Types generated from Discord's OpenAPI document, by operation name. */
type SpecNames = ReadonlyMap<string, SpecTypeNames>;

export function readme(model: CatalogModel, specNames: SpecNames): string {
  const rows = model.operations.map((op) => {
    const { definition, source, route } = op;
    const removed = source.removedIn ? ` (deprecated: not in the document since build ${source.removedIn})` : '';
    const deprecated = source.deprecated && !source.removedIn ? ' (deprecated)' : '';
    const operationId = source.operationId ? `\`${source.operationId}\`` : '—';
    return `| \`${route.key}\` | ${definition.method} | \`${op.pathText}\` | \`client.${source.name}\` | ${operationId} | ${typesSource(op, specNames.get(source.name) ?? {})} | ${source.summary}${source.userOnly ? ' (user accounts only)' : ''}${deprecated}${removed}${source.link ? ' (a link: builds the URL, sends nothing)' : ''} |`;
  });
  return [
    '# generated/',
    '',
    'Everything in this folder is written by `npm run generate` (`scripts/generate.ts`) from',
    '`catalog/routes.ts`. **Do not edit it by hand**: change the catalog and regenerate.',
    '`npm run generate -- --check` fails when this folder is not what the catalog produces.',
    '',
    `${model.routes.length} route keys (plus \`None\` for every other path), ${model.operations.length} operations.`,
    '',
    "- **operationId**: the operation of Discord's OpenAPI document (`catalog/discord-openapi/`) the",
    '  method follows; `—` for operations kept by hand (the seed v6 routes, user-only and documented-only ones).',
    "- **Types**: where the method's body, query and result types come from: `discord-api-types` (the",
    "  ecosystem's names, kept wherever it has them), `OpenAPI` (`spec-types.ts`, generated from the",
    "  document's schemas with openapi-typescript), or both (`discord-api-types + OpenAPI (result)`:",
    '  the parts in brackets come from the document). `untyped`: the catalog names no type and the',
    '  document has no schema for it (a hand-kept operation).',
    '',
    "`spec-types.ts` is derived from Discord's OpenAPI document (`discord/discord-api-spec`, MIT,",
    'Copyright 2023 Discord; the license is in `catalog/discord-openapi/LICENSE` of the repository).',
    '',
    '| Route key | Method | Path | Method of the client | operationId | Types | Documented name |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...pagedReadme(model),
    ...cdnReadme(model.cdn),
  ].join('\n');
}

/** Where an operation's types come from, for the README. */
function typesSource(op: OperationModel, spec: SpecTypeNames): string {
  const fromDocument = Object.keys(spec) as (keyof SpecTypeNames)[];
  const named = op.source.types !== undefined && Object.keys(op.source.types).some((key) => key !== 'from');
  const library = op.source.types?.from === 'v6' ? 'discord-api-types (v6)' : 'discord-api-types';
  if (named && fromDocument.length > 0) return `${library} + OpenAPI (${fromDocument.join(', ')})`;
  if (named) return library;
  if (fromDocument.length > 0) return 'OpenAPI';
  return op.definition.binaryResult ? 'bytes' : 'untyped';
}

/** The README's list of paged lists and their iterators. */
function pagedReadme(model: CatalogModel): string[] {
  const paged = model.operations.filter((op) => op.source.paginate);
  const cursorOf = (facts: NonNullable<OperationModel['source']['paginate']>) =>
    facts.cursor === 'offset'
      ? `offset (to ${facts.maxOffset})`
      : `${facts.parameters.map((name) => `\`${name}\``).join(', ')}: ${facts.cursor === 'timestamp' ? 'an ISO timestamp' : 'an id'}`;
  return [
    '## Paged lists',
    '',
    `${paged.length} lists are paged; each has two iterators beside its method: \`<verb>All\` yields every item,`,
    '`<verb>Pages` every page as the service sent it. Both fetch a page when the loop wants one.',
    '',
    '| Method | Items | Pages | Cursor | Without a cursor | Largest page | Items from |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...paged.map((op) => {
      const facts = op.source.paginate!;
      const base = `client.${op.source.name.replace(/\.\w+$/, '')}`;
      return `| \`client.${op.source.name}\` | \`${base}.${op.verb}All\` | \`${base}.${op.verb}Pages\` | ${cursorOf(facts)} | ${facts.order} | ${facts.limit} | ${facts.items === undefined ? 'the result' : `\`${facts.items}\``}${facts.tryLater ? ' (202: tried again)' : ''} |`;
    }),
    '',
  ];
}
