/**
 * A paged list's two generated iterators, `<verb>All` (items) and `<verb>Pages` (results), beside
 * its method (see `paginate` in catalog/schema.ts and src/pagination/walk.ts).
 */
import { StructureKind, type MethodDeclarationStructure } from 'ts-morph';
import { camelCase } from '../../src/paths/path.ts';
import type { OperationModel } from './model.ts';
import { CALL_OPTIONS_DOC, EXAMPLE_VALUES, pascalOf, pathParametersOf, resultTypeOf } from './names.ts';
import type { SpecTypeNames } from './spec-types.ts';

/** A paged list's two iterators: every item (`listAll`), every page as the service sent it (`listPages`). */
export function iteratorsOf(op: OperationModel, spec: SpecTypeNames): MethodDeclarationStructure[] {
  const facts = op.source.paginate!;
  const id = JSON.stringify(op.source.name);
  const parameters = pathParametersOf(op);
  const pathArguments = parameters.map((p) => p.name).join(', ');
  const query = { name: 'query', type: `${pascalOf(op)}AllQuery`, hasQuestionToken: !op.source.queryRequired };
  const direction =
    facts.cursor === 'offset'
      ? `Walks by \`offset\` (${facts.limit} a page, to offset ${facts.maxOffset})${facts.tryLater ? '; a 202 "try later" is waited out' : ''}.`
      : facts.parameters.length === 2
        ? `\`after\` walks oldest-first, \`before\` newest-first, no cursor ${facts.order}.`
        : `Walks ${facts.order} (${facts.parameters.map((p) => `\`${p}\``).join(', ')}: ${facts.cursor === 'timestamp' ? 'an ISO timestamp' : 'an id'}).`;
  const lines = (what: string) => [
    `${what} of \`${op.source.name}\` (${op.source.summary}), fetched a page at a time as the loop asks.`,
    '',
    direction,
    `Each request asks for up to ${facts.limit} items, or what is left to reach \`max\`; leaving the loop`,
    'fetches nothing more. Every page is an ordinary call: waits, `maxWait`, the signal and events apply.',
    '',
    ...op.parameters.map((p) => `@param ${camelCase(p.name)} - \`{${p.name}}\`.`),
    "@param query - The list's query, the cursor to start from, and `max` (the most items).",
    `@param options - ${CALL_OPTIONS_DOC} (docs/options.md).`,
  ];
  const example = [...op.parameters.map((p) => EXAMPLE_VALUES[p.name] ?? "'1'"), '{ max: 500 }'].join(', ');
  const iterator = (kind: 'items' | 'pages', name: string, resultType: string, what: string, variable: string) => ({
    kind: StructureKind.Method as const,
    name,
    typeParameters: [{ name: 'T', default: resultType }],
    parameters: [...parameters, query, { name: 'options', type: 'RequestOptions', hasQuestionToken: true }],
    returnType: 'AsyncIterable<T>',
    docs: [
      [
        ...lines(what),
        '@example',
        '```ts',
        `for await (const ${variable} of client.${op.source.name.replace(/\.\w+$/, '')}.${name}(${example})) console.log(${variable});`,
        '```',
      ].join('\n'),
    ],
    statements: [
      `return this.#call.${kind}(operations[${id}], paginations[${id}], [${pathArguments}], query, options) as AsyncIterable<T>;`,
    ],
  });
  return [
    iterator('items', `${op.verb}All`, `${pascalOf(op)}Item`, 'Every item', 'item'),
    iterator('pages', `${op.verb}Pages`, resultTypeOf(op, spec), 'Every page, as the service sent it,', 'page'),
  ];
}
