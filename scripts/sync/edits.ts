/**
 * Writes a sync's edits into the catalog's source text. ts-morph finds where each edit goes;
 * the edit itself is a splice of text, so everything the diff does not touch (comments, order,
 * line breaks, hand formatting) stays byte for byte as it was. Pure: text in, text out.
 */
import { Project, SyntaxKind, type ArrayLiteralExpression, type Node, type ObjectLiteralExpression } from 'ts-morph';
import type { CatalogOperation, CatalogRoute } from '../../catalog/schema.ts';
import type { CatalogEdit } from './diff.ts';

/** Thrown when the catalog's source is not shaped as `export const catalog = { parameters, routes }`. */
export class CatalogSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogSourceError';
  }
}

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Lines longer than this are written one property a line. */
const ONE_LINE_LIMIT = 150;

/** The order properties are written in: the catalog's own. */
const OPERATION_ORDER = [
  'name',
  'types',
  'method',
  'path',
  'summary',
  'body',
  'encoding',
  'attachmentsIn',
  'allowedMentionsIn',
  'bodyIn',
  'binaryResult',
  'link',
  'query',
  'queryRequired',
  'userOnly',
  'unauthenticated',
  'auditLogReason',
  'deprecated',
  'operationId',
  'auth',
  'removedIn',
  'renamedTo',
  'keep',
  'paginate',
];
const ROUTE_ORDER = [
  'key',
  'v10Only',
  'major',
  'bucketHoldsMethod',
  'path',
  'pathSource',
  'aliases',
  'note',
  'v6Note',
  'operations',
];

/**
 * Applies the edits in two passes, so no two splices of one pass overlap: first what changes
 * existing operations (properties set or removed, operations deleted), then what adds
 * (parameters, operations, routes) to the text the first pass left.
 */
export function applyEdits(source: string, edits: readonly CatalogEdit[]): string {
  const changes = edits.filter((edit) => edit.kind === 'set' || edit.kind === 'remove-operation');
  const additions = edits.filter((edit) => edit.kind !== 'set' && edit.kind !== 'remove-operation');
  return addEntries(changeOperations(source, changes), additions);
}

interface CatalogNodes {
  readonly parameters: ObjectLiteralExpression;
  readonly routes: ArrayLiteralExpression;
  readonly routeByKey: ReadonlyMap<string, ObjectLiteralExpression>;
  readonly operationByName: ReadonlyMap<string, ObjectLiteralExpression>;
}

function parse(source: string): CatalogNodes {
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('routes.ts', source);
  const catalog = file.getVariableDeclaration('catalog')?.getInitializerIfKind(SyntaxKind.ObjectLiteralExpression);
  if (!catalog) throw new CatalogSourceError('catalog/routes.ts has no `export const catalog = { … }`');
  const routes = propertyValue(catalog, 'routes', SyntaxKind.ArrayLiteralExpression);
  const routeObjects = routes.getElements().filter((element) => element.isKind(SyntaxKind.ObjectLiteralExpression));
  const operationByName = new Map<string, ObjectLiteralExpression>();
  for (const route of routeObjects) {
    for (const operation of propertyValue(route, 'operations', SyntaxKind.ArrayLiteralExpression).getElements()) {
      if (operation.isKind(SyntaxKind.ObjectLiteralExpression))
        operationByName.set(stringProperty(operation, 'name'), operation);
    }
  }
  return {
    parameters: propertyValue(catalog, 'parameters', SyntaxKind.ObjectLiteralExpression),
    routes,
    routeByKey: new Map(routeObjects.map((route) => [stringProperty(route, 'key'), route])),
    operationByName,
  };
}

function changeOperations(source: string, edits: readonly CatalogEdit[]): string {
  if (edits.length === 0) return source;
  const { operationByName } = parse(source);
  const operationOf = (name: string) => {
    const operation = operationByName.get(name);
    if (!operation) throw new CatalogSourceError(`no operation "${name}" in catalog/routes.ts`);
    return operation;
  };
  const settings = new Map<ObjectLiteralExpression, Map<string, unknown>>();
  const splices: Splice[] = [];
  for (const edit of edits) {
    if (edit.kind === 'remove-operation') {
      splices.push(removal(operationOf(edit.operationName)));
    } else if (edit.kind === 'set') {
      const operation = operationOf(edit.operationName);
      const properties = settings.get(operation) ?? new Map<string, unknown>();
      for (const [name, value] of Object.entries(edit.properties)) properties.set(name, value);
      settings.set(operation, properties);
    }
  }
  for (const [operation, properties] of settings) splices.push(...setProperties(operation, properties));
  return splice(source, splices);
}

/**
 * Sets or removes properties of one operation. An operation written on one line is written
 * again from its properties (each kept as it was, or set); one written a property a line is
 * spliced, so its comments stay.
 */
function setProperties(operation: ObjectLiteralExpression, properties: ReadonlyMap<string, unknown>): Splice[] {
  for (const name of properties.keys()) {
    const property = operation.getProperty(name);
    if (property && !property.isKind(SyntaxKind.PropertyAssignment)) {
      throw new CatalogSourceError(`${stringProperty(operation, 'name')}.${name} is not a plain property`);
    }
  }
  const initializerOf = (name: string) =>
    operation.getPropertyOrThrow(name).asKindOrThrow(SyntaxKind.PropertyAssignment).getInitializerOrThrow();
  if (!operation.getText().includes('\n')) {
    const entries = operation.getProperties().flatMap((property) => {
      const name = property.asKindOrThrow(SyntaxKind.PropertyAssignment).getName();
      if (!properties.has(name)) return [property.getText()];
      const value = properties.get(name);
      return value === undefined ? [] : [`${name}: ${literal(value)}`];
    });
    for (const [name, value] of properties) {
      if (value !== undefined && !operation.getProperty(name)) entries.push(`${name}: ${literal(value)}`);
    }
    // It stays on its one line, however long: the sync changes facts, not a person's layout.
    return [{ start: operation.getStart(), end: operation.getEnd(), text: `{ ${entries.join(', ')} }` }];
  }
  const splices: Splice[] = [];
  const appended: string[] = [];
  for (const [name, value] of properties) {
    const property = operation.getProperty(name);
    if (value === undefined) {
      if (property) splices.push(removal(property));
    } else if (property) {
      const initializer = initializerOf(name);
      splices.push({ start: initializer.getStart(), end: initializer.getEnd(), text: literal(value) });
    } else {
      appended.push(`${name}: ${literal(value)}`);
    }
  }
  if (appended.length > 0) splices.push(appending(operation, appended));
  return splices;
}

function addEntries(source: string, edits: readonly CatalogEdit[]): string {
  if (edits.length === 0) return source;
  const { parameters, routes, routeByKey } = parse(source);
  const appended = new Map<ObjectLiteralExpression | ArrayLiteralExpression, string[]>();
  const append = (node: ObjectLiteralExpression | ArrayLiteralExpression, entry: string) => {
    appended.set(node, [...(appended.get(node) ?? []), entry]);
  };
  const routeInsertions = new Map<string | undefined, string[]>();
  for (const edit of edits) {
    if (edit.kind === 'add-parameter') {
      append(parameters, `${edit.name}: ${literal(edit.parameterKind)}`);
    } else if (edit.kind === 'add-operation') {
      const route = routeByKey.get(edit.routeKey);
      if (!route) throw new CatalogSourceError(`no route "${edit.routeKey}" in catalog/routes.ts`);
      append(propertyValue(route, 'operations', SyntaxKind.ArrayLiteralExpression), operationText(edit.operation, 8));
    } else if (edit.kind === 'add-route') {
      routeInsertions.set(edit.afterKey, [...(routeInsertions.get(edit.afterKey) ?? []), routeText(edit.route)]);
    }
  }
  const splices: Splice[] = [...appended].map(([node, entries]) => appending(node, entries));
  for (const [afterKey, texts] of routeInsertions) {
    if (afterKey === undefined) {
      splices.push(appending(routes, texts, true));
      continue;
    }
    const after = routeByKey.get(afterKey);
    if (!after) throw new CatalogSourceError(`no route "${afterKey}" to insert after`);
    const end = endWithComma(after);
    splices.push({ start: end, end, text: texts.map((text) => `\n    ${text},`).join('') });
  }
  return splice(source, splices);
}

function propertyValue<Kind extends SyntaxKind.ObjectLiteralExpression | SyntaxKind.ArrayLiteralExpression>(
  object: ObjectLiteralExpression,
  name: string,
  kind: Kind,
) {
  const property = object.getProperty(name);
  const value = property?.isKind(SyntaxKind.PropertyAssignment) ? property.getInitializerIfKind(kind) : undefined;
  if (!value) throw new CatalogSourceError(`catalog/routes.ts: "${name}" is not a literal where the sync expects one`);
  return value;
}

function stringProperty(object: ObjectLiteralExpression, name: string): string {
  const property = object.getProperty(name);
  const value = property?.isKind(SyntaxKind.PropertyAssignment)
    ? property.getInitializerIfKind(SyntaxKind.StringLiteral)
    : undefined;
  return value?.getLiteralValue() ?? '';
}

/** Where a list element ends, its trailing comma included. */
function endWithComma(node: Node): number {
  const next = node.getNextSibling();
  return next?.isKind(SyntaxKind.CommaToken) ? next.getEnd() : node.getEnd();
}

/** Takes out a property or element with its comma and, when it stands on lines of its own, those lines. */
function removal(node: Node): Splice {
  const source = node.getSourceFile().getFullText();
  let start = node.getStart();
  let end = endWithComma(node);
  const lineStart = source.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = source.indexOf('\n', end);
  if (source.slice(lineStart, start).trim() === '' && source.slice(end, lineEnd).trim() === '') {
    return { start: lineStart, end: lineEnd + 1, text: '' };
  }
  // On a shared line: `{ a: 1, b: 2 }` loses `, b: 2` (or `a: 1, `).
  const before = source.slice(0, start).match(/,\s*$/);
  if (end === node.getEnd() && before) start -= before[0].length;
  else end += source.slice(end).match(/^\s*/)![0].length;
  return { start, end, text: '' };
}

/** Adds entries before a literal's closing bracket, in its own layout (one line, or one entry a line). */
function appending(
  node: ObjectLiteralExpression | ArrayLiteralExpression,
  entries: readonly string[],
  blocks = false,
): Splice {
  const source = node.getSourceFile().getFullText();
  const close = node.getEnd() - 1;
  const inner = source.slice(node.getStart() + 1, close);
  const indent = indentOf(source, node.getStart());
  if (!inner.includes('\n')) {
    const items = inner.trim().replace(/,$/, '');
    const all = [...(items === '' ? [] : [items]), ...entries];
    const oneLine = `${all.join(', ')}`;
    if (!blocks && !oneLine.includes('\n') && indent.length + oneLine.length + 8 <= ONE_LINE_LIMIT) {
      return {
        start: node.getStart(),
        end: node.getEnd(),
        text: node.isKind(SyntaxKind.ArrayLiteralExpression) ? `[${oneLine}]` : `{ ${oneLine} }`,
      };
    }
    const open = node.getStart() + 1;
    const lines = all.map((entry) => `${indent}  ${entry},`).join('\n');
    return { start: open, end: close, text: `\n${lines}\n${indent}` };
  }
  const closingLine = source.lastIndexOf('\n', close - 1) + 1;
  const existing = source.slice(node.getStart() + 1, closingLine).trimEnd();
  const text = entries.map((entry) => `${indent}  ${entry},\n`).join('');
  // The last entry ends with its comma (or there is none): the new lines go in before the closing
  // line, touching nothing else, so the same edit may also take out the last entry's line.
  if (existing.endsWith(',') || existing === '') return { start: closingLine, end: closingLine, text };
  const at = node.getStart() + 1 + existing.length;
  return { start: at, end: closingLine, text: `,\n${text}` };
}

function indentOf(source: string, position: number): string {
  const lineStart = source.lastIndexOf('\n', position - 1) + 1;
  return source.slice(lineStart).match(/^\s*/)![0];
}

function splice(source: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let text = source;
  let floor = Infinity;
  for (const { start, end, text: insert } of sorted) {
    if (end > floor) throw new CatalogSourceError('two edits of the catalog overlap');
    text = text.slice(0, start) + insert + text.slice(end);
    floor = start;
  }
  return text;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * What a single-quoted string cannot hold as it is: its quote, a backslash, a line break that
 * ends it (LF, CR), and a lone surrogate, which the UTF-8 file would save as U+FFFD.
 */
const UNSAFE = /[\\'\n\r]|\p{Cs}/gu;
const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r' };

/** A value as the catalog writes it: single quotes, bare keys, `{ a: 1 }`. */
export function literal(value: unknown): string {
  if (typeof value === 'string')
    return `'${value.replace(UNSAFE, (unit) => ESCAPED[unit] ?? `\\u${unit.charCodeAt(0).toString(16)}`)}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, member]) => member !== undefined);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([key, member]) => `${IDENTIFIER.test(key) ? key : literal(key)}: ${literal(member)}`).join(', ')} }`;
  }
  throw new CatalogSourceError(`cannot write ${typeof value} into the catalog`);
}

const ordered = (object: object, order: readonly string[]) =>
  Object.entries(object)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));

/**
 * An operation entry standing at `indentWidth`: on one line where it fits, else one property a
 * line. Its first line is not indented (the caller places it).
 */
function operationText(operation: CatalogOperation, indentWidth: number): string {
  const entries = ordered(operation, OPERATION_ORDER).map(([key, value]) => `${key}: ${literal(value)}`);
  const oneLine = `{ ${entries.join(', ')} }`;
  const indent = ' '.repeat(indentWidth);
  if (indentWidth + oneLine.length + 1 <= ONE_LINE_LIMIT) return oneLine;
  return `{\n${entries.map((entry) => `${indent}  ${entry},`).join('\n')}\n${indent}}`;
}

/** A route entry standing at 4 spaces (first line not indented), its operations one a line. */
function routeText(route: CatalogRoute): string {
  const lines = ordered(route, ROUTE_ORDER).map(([key, value]) =>
    key === 'operations'
      ? `      operations: [\n${(value as CatalogOperation[]).map((operation) => `        ${operationText(operation, 8)},`).join('\n')}\n      ],`
      : `      ${key}: ${literal(value)},`,
  );
  return `{\n${lines.join('\n')}\n    }`;
}
