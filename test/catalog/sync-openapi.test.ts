/**
 * scripts/sync/openapi.ts: what the sync reads of an OpenAPI document, and the one-line
 * `SpecInputError` for each document it cannot follow. Documents written out in full here, so
 * each case shows exactly the shape it is about.
 */
import { describe, expect, it } from 'vitest';
import { readSpec, SpecInputError, type SpecOperation } from '../../scripts/sync/openapi.ts';

const ID = { $ref: '#/components/schemas/SnowflakeType' };
const SCHEMAS = { SnowflakeType: { type: 'string' } };

/** A version-10 OpenAPI 3.1 document of `paths`, with Discord's id schema and its two schemes. */
const documentOf = (paths: Record<string, unknown>, components: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { version: '10' },
  paths,
  components: {
    schemas: SCHEMAS,
    securitySchemes: { OAuth2: { flows: { code: { scopes: { identify: '', guilds: '' } } } } },
    ...components,
  },
});

/** The one operation of a document with `operation` at GET `path` (a bot token's, by default). */
const readOne = (operation: Record<string, unknown>, path = '/x', components?: Record<string, unknown>) =>
  readSpec(
    documentOf({ [path]: { get: { operationId: 'x', security: [{ BotToken: [] }], ...operation } } }, components),
  ).operations[0]!;

const refusal = (input: unknown): string => {
  try {
    readSpec(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SpecInputError);
    expect((error as Error).name).toBe('SpecInputError');
    return (error as Error).message;
  }
  throw new Error('readSpec accepted the document');
};

describe('readSpec refuses what the catalog cannot follow, in one line that says where', () => {
  const get = (operation: Record<string, unknown>) => documentOf({ '/x': { get: { operationId: 'x', ...operation } } });
  it.each<[string, unknown, string]>([
    ['null', null, 'not an OpenAPI document: it has no "openapi" version field'],
    [
      'a version that is not a string',
      { openapi: 3, info: { version: '10' }, paths: {} },
      'no "openapi" version field',
    ],
    [
      'OpenAPI 30.0',
      { ...documentOf({}), openapi: '30.0' },
      'OpenAPI 30.0 is not supported: the catalog reads OpenAPI 3.x',
    ],
    ['OpenAPI 3', { ...documentOf({}), openapi: '3' }, 'OpenAPI 3 is not supported'],
    ['OpenAPI 3.1.0-rc', { ...documentOf({}), openapi: '3.1.0-rc' }, 'OpenAPI 3.1.0-rc is not supported'],
    ['no info', { openapi: '3.1.0', paths: {} }, 'not an OpenAPI document: it has no info.version'],
    ['a number for info.version', { openapi: '3.1.0', info: { version: 10 }, paths: {} }, 'it has no info.version'],
    ['paths as a list', { openapi: '3.1.0', info: { version: '10' }, paths: [] }, 'it has no "paths" object'],
    ['a path item that is not an object', documentOf({ '/x': [] }), 'path /x: its item is not an object'],
    [
      'a path with a trailing slash',
      documentOf({ '/x/': {} }),
      'path "/x/": not a path the catalog can name (it starts with / and no segment is empty)',
    ],
    ['a path with an empty segment', documentOf({ '/x//y': {} }), 'path "/x//y": not a path the catalog can name'],
    ['a path without its leading slash', documentOf({ 'x/y': {} }), 'path "x/y": not a path the catalog can name'],
    ['the root', documentOf({ '/': {} }), 'path "/": not a path the catalog can name'],
    [
      'an operation that is not an object',
      documentOf({ '/x': { get: 'x' } }),
      'GET /x: the operation is not an object',
    ],
    ['an empty operationId', get({ operationId: '' }), 'GET /x: the operation has no operationId'],
    [
      'one operationId twice',
      documentOf({ '/x': { get: { operationId: 'x' } }, '/y': { post: { operationId: 'x' } } }),
      'POST /y: operationId "x" is also GET /x',
    ],
    [
      'parameters that are not a list',
      documentOf({ '/x': { parameters: {}, get: { operationId: 'x' } } }),
      'path /x: "parameters" is not a list',
    ],
    [
      'a parameter with no "in"',
      get({ parameters: [{ name: 'limit' }] }),
      'GET /x: a parameter has no name or no "in"',
    ],
    ['a parameter with no name', get({ parameters: [{ in: 'query' }] }), 'GET /x: a parameter has no name or no "in"'],
    [
      'a request body without content',
      get({ requestBody: { required: true } }),
      'GET /x: the request body has no content types',
    ],
    [
      'a request body of text',
      get({ requestBody: { content: { 'text/plain': {}, 'application/xml': {} } } }),
      "GET /x: the request body's content types (text/plain, application/xml) are not JSON or a form",
    ],
    ['security that is not a list', get({ security: {} }), 'GET /x: "security" is not a list'],
    [
      'a security requirement that is not an object',
      get({ security: ['BotToken'] }),
      'GET /x: a security requirement is not an object',
    ],
    [
      'OAuth2 scopes that are not a list',
      get({ security: [{ OAuth2: 'identify' }] }),
      "GET /x: the OAuth2 requirement's scopes are not a list",
    ],
    ['an unknown scheme', get({ security: [{ ApiKey: [] }] }), 'GET /x: unknown security scheme "ApiKey"'],
    [
      'an external $ref',
      get({ requestBody: { $ref: 'other.json#/Body' } }),
      'external $ref "other.json#/Body" is not supported',
    ],
    [
      'a $ref chain that never ends',
      documentOf(
        { '/x': { get: { operationId: 'x', requestBody: { $ref: '#/components/requestBodies/A' } } } },
        {
          requestBodies: { A: { $ref: '#/components/requestBodies/B' }, B: { $ref: '#/components/requestBodies/A' } },
        },
      ),
      'a $ref chain through #/components/requestBodies/',
    ],
  ])('%s', (_, input, message) => {
    const said = refusal(input);
    expect(said).toContain(message);
    expect(said).not.toContain('\n');
  });

  it('a $ref chain of 33 links is followed; one of 34 is refused', () => {
    const chain = (links: number) => {
      const bodies: Record<string, unknown> = { [`B${links}`]: { content: { 'application/json': { schema: {} } } } };
      for (let link = 0; link < links; link++) bodies[`B${link}`] = { $ref: `#/components/requestBodies/B${link + 1}` };
      return documentOf(
        { '/x': { post: { operationId: 'x', requestBody: { $ref: '#/components/requestBodies/B0' } } } },
        {
          requestBodies: bodies,
        },
      );
    };
    expect(readSpec(chain(32)).operations[0]!.body).toBe('optional');
    expect(refusal(chain(33))).toMatch(/^a \$ref chain through #\/components\/requestBodies\/B\d+ does not end$/);
  });

  it('accepts OpenAPI 3.0 and 3.1.2, and a path with no operation at all', () => {
    for (const openapi of ['3.0', '3.1.2'])
      expect(readSpec({ ...documentOf({ '/x': {} }), openapi }).operations).toEqual([]);
  });
});

describe('what readSpec reads of an operation', () => {
  it('operations in document order: paths as written, then methods in HTTP order, whatever the order of keys', () => {
    const read = readSpec(
      documentOf({
        '/b': { delete: { operationId: 'b_delete' }, get: { operationId: 'b_get' }, patch: { operationId: 'b_patch' } },
        '/a': { put: { operationId: 'a_put' }, post: { operationId: 'a_post' }, head: { operationId: 'ignored' } },
      }),
    ).operations;
    expect(read.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /b',
      'PATCH /b',
      'DELETE /b',
      'POST /a',
      'PUT /a',
    ]);
  });

  it("path parameters in path order, ids where typed SnowflakeType; an operation's own parameter overrides the path item's", () => {
    const read = readSpec(
      documentOf({
        '/guilds/{guild_id}/emojis/{emoji_name}/{code}': {
          parameters: [
            { name: 'code', in: 'path', schema: { type: 'string' } },
            { name: 'guild_id', in: 'path', schema: { type: 'string' } },
            // The same name in the query is not the path's parameter.
            { name: 'emoji_name', in: 'query', schema: ID },
          ],
          get: { operationId: 'x', parameters: [{ name: 'guild_id', in: 'path', schema: ID }] },
        },
      }),
    ).operations[0]!;
    expect(read.pathParameters).toEqual([
      { name: 'guild_id', snowflake: true },
      { name: 'emoji_name', snowflake: false },
      { name: 'code', snowflake: false },
    ]);
    expect(read.query).toEqual([{ name: 'emoji_name', required: false }]);
  });

  it('query parameters: required only when true, the maximum of their schema (through a $ref), and timestamps', () => {
    const read = readOne(
      {
        parameters: [
          { name: 'limit', in: 'query', required: true, schema: { $ref: '#/components/schemas/Limit' } },
          { name: 'before', in: 'query', required: 'true', schema: { type: 'string', format: 'date-time' } },
          { name: 'after', in: 'query', schema: { type: 'integer', maximum: '100' } },
          { name: 'around', in: 'query' },
          { name: 'X-Audit-Log-Reason', in: 'header', schema: { type: 'string' } },
        ],
      },
      '/x',
      { schemas: { ...SCHEMAS, Limit: { type: 'integer', minimum: 1, maximum: 100 } } },
    );
    expect(read.query).toEqual([
      { name: 'limit', required: true, maximum: 100 },
      { name: 'before', required: false, timestamp: true },
      { name: 'after', required: false },
      { name: 'around', required: false },
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'the summary, to its first full stop',
      { summary: 'Gets v1.2 of a thing. Then more.', description: 'no' },
      'Gets v1.2 of a thing',
    ],
    [
      'the description when the summary is blank',
      { summary: '  ', description: '  Lists them all.\nMore.' },
      'Lists them all',
    ],
    [
      'the operationId in words when neither is text',
      { summary: 3, operationId: 'get__openid_connect_userinfo_' },
      'Get Openid Connect Userinfo',
    ],
  ])('its summary: %s', (_, operation, summary) => {
    expect(readOne(operation).summary).toBe(summary);
  });

  const bodyOf = (requestBody: unknown, schemas: Record<string, unknown> = {}) =>
    readOne({ requestBody }, '/x', { schemas: { ...SCHEMAS, ...schemas } });
  const sent = ({ body, encoding, attachmentsIn, allowedMentionsIn }: SpecOperation) => ({
    body,
    encoding,
    attachmentsIn,
    allowedMentionsIn,
  });
  const FILE = { type: 'object', properties: { id: ID, filename: { type: 'string' } } };
  const files = (schema: unknown) => ({ type: 'array', items: schema });

  it.each<[string, unknown, Record<string, unknown>, ReturnType<typeof sent>]>([
    ['no body', undefined, {}, { body: 'none', encoding: 'json', attachmentsIn: null, allowedMentionsIn: null }],
    [
      'JSON, required only when true',
      { required: 'yes', content: { 'application/json': { schema: { type: 'object' } } } },
      {},
      { body: 'optional', encoding: 'json', attachmentsIn: null, allowedMentionsIn: null },
    ],
    [
      'a message whose attachments are files, with allowed_mentions: json+files at the top',
      {
        required: true,
        content: {
          'application/json': {
            schema: { properties: { attachments: files({ $ref: '#/components/schemas/File' }), allowed_mentions: {} } },
          },
        },
      },
      { File: FILE },
      { body: 'required', encoding: 'json+files', attachmentsIn: null, allowedMentionsIn: 'body' },
    ],
    [
      "an interaction response's data (in one of its variants) holding the message",
      {
        content: {
          'application/json': {
            schema: {
              oneOf: [
                { properties: { type: {} } },
                {
                  properties: { data: { anyOf: [{ properties: { attachments: files(FILE), allowed_mentions: {} } }] } },
                },
              ],
            },
          },
        },
      },
      {},
      { body: 'optional', encoding: 'json+files', attachmentsIn: 'data', allowedMentionsIn: 'data' },
    ],
    [
      "a forum post's message",
      {
        content: {
          'application/json': {
            schema: { properties: { message: { allOf: [{ properties: { attachments: files(FILE) } }] } } },
          },
        },
      },
      {},
      { body: 'optional', encoding: 'json+files', attachmentsIn: 'message', allowedMentionsIn: null },
    ],
    [
      "attachments that are not files (another service's): plain JSON",
      {
        content: {
          'application/json': { schema: { properties: { attachments: files({ properties: { url: {} } }) } } },
        },
      },
      {},
      { body: 'optional', encoding: 'json', attachmentsIn: null, allowedMentionsIn: null },
    ],
    [
      'JSON beside a multipart form of files[n] (format or contentEncoding binary): json+files',
      {
        content: {
          'application/json': { schema: { type: 'object' } },
          'multipart/form-data': {
            schema: { properties: { payload_json: {}, 'files[0]': { type: 'string', contentEncoding: 'binary' } } },
          },
        },
      },
      {},
      { body: 'optional', encoding: 'json+files', attachmentsIn: null, allowedMentionsIn: null },
    ],
    [
      'JSON beside a form whose bytes are not files[n]: plain JSON',
      {
        content: {
          'application/json': { schema: { type: 'object' } },
          'multipart/form-data': {
            schema: {
              properties: {
                'files[a]': { format: 'binary' },
                file: { format: 'binary' },
                'files[1]': { type: 'string' },
              },
            },
          },
        },
      },
      {},
      { body: 'optional', encoding: 'json', attachmentsIn: null, allowedMentionsIn: null },
    ],
    [
      'a multipart form alone',
      {
        required: true,
        content: { 'multipart/form-data': { schema: { properties: { file: { format: 'binary' } } } } },
      },
      {},
      { body: 'required', encoding: 'form-data', attachmentsIn: null, allowedMentionsIn: null },
    ],
    [
      'a urlencoded form alone, through a $ref',
      { $ref: '#/components/schemas/Form' },
      { Form: { content: { 'application/x-www-form-urlencoded': { schema: {} } } } },
      { body: 'optional', encoding: 'urlencoded', attachmentsIn: null, allowedMentionsIn: null },
    ],
  ])('its body: %s', (_, requestBody, schemas, expected) => {
    expect(sent(bodyOf(requestBody, schemas))).toEqual(expected);
  });

  const resultOf = (responses: unknown, schemas: Record<string, unknown> = {}) => {
    const { binaryResult, arrayResult, emptyResult, resultShape } = readOne({ responses }, '/x', {
      schemas: { ...SCHEMAS, ...schemas },
    });
    return { binaryResult, arrayResult, emptyResult, resultShape };
  };
  const OBJECT = { list: false, lists: [], members: [] };

  it.each<[string, unknown, Record<string, unknown>, ReturnType<typeof resultOf>]>([
    [
      'no responses',
      undefined,
      {},
      { binaryResult: false, arrayResult: false, emptyResult: false, resultShape: OBJECT },
    ],
    [
      'only errors',
      { 400: { content: { 'application/json': { schema: { type: 'array' } } } } },
      {},
      { binaryResult: false, arrayResult: false, emptyResult: false, resultShape: OBJECT },
    ],
    [
      'a 204 and a 200 without content: empty',
      { 200: { description: 'x', content: {} }, 204: { description: 'x' }, 404: { content: { 'text/plain': {} } } },
      {},
      { binaryResult: false, arrayResult: false, emptyResult: true, resultShape: OBJECT },
    ],
    [
      'a 204 beside a JSON list (type: [array, null], through a $ref): not empty, a list',
      {
        200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Things' } } } },
        204: { description: 'x' },
      },
      { Things: { type: ['array', 'null'], items: {} } },
      {
        binaryResult: false,
        arrayResult: true,
        emptyResult: false,
        resultShape: { list: true, lists: [], members: [] },
      },
    ],
    [
      'bytes',
      { 200: { content: { 'image/png': { schema: { type: 'string' } } } } },
      {},
      { binaryResult: true, arrayResult: false, emptyResult: false, resultShape: OBJECT },
    ],
    [
      "an object's members over its variants: lists and the rest, each once; the first JSON success counts",
      {
        200: { content: { 'text/csv': {} } },
        201: {
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { properties: { threads: { type: 'array' }, has_more: { type: 'boolean' } } },
                  { properties: { members: { $ref: '#/components/schemas/List' }, has_more: {} } },
                ],
              },
            },
          },
        },
        202: { content: { 'application/json': { schema: { properties: { other: { type: 'array' } } } } } },
      },
      { List: { type: 'array' } },
      {
        binaryResult: true,
        arrayResult: false,
        emptyResult: false,
        resultShape: { list: false, lists: ['threads', 'members'], members: ['has_more'] },
      },
    ],
  ])('its result: %s', (_, responses, schemas, expected) => {
    expect(resultOf(responses, schemas)).toEqual(expected);
  });

  it.each<[string, unknown, SpecOperation['auth']]>([
    ['no security: a bot token', undefined, { bot: true }],
    ['an empty list: nobody', [], { bot: false }],
    ['an empty requirement: no token', [{}], { bot: false, none: true }],
    ['a bot token or some scopes', [{ BotToken: [] }, { OAuth2: ['guilds'] }], { bot: true, oauth2: ['guilds'] }],
    [
      'every scope the scheme names: any scope',
      [{ OAuth2: ['guilds', 'identify', 'email'] }],
      { bot: false, oauth2: [] },
    ],
  ])('who may call it: %s', (_, security, auth) => {
    const operation = { operationId: 'x', ...(security !== undefined && { security }) };
    expect(readSpec(documentOf({ '/x': { get: operation } })).operations[0]!.auth).toEqual(auth);
  });

  it('a document whose OAuth2 scheme names no scope reads a requirement as its scopes, never "any scope"', () => {
    const read = readSpec({
      ...documentOf({ '/x': { get: { operationId: 'x', security: [{ OAuth2: ['identify'] }] } } }),
      components: {},
    });
    expect(read.operations[0]!.auth).toEqual({ bot: false, oauth2: ['identify'] });
    const empty = readSpec({
      ...documentOf({ '/x': { get: { operationId: 'x', security: [{ OAuth2: [] }] } } }),
      components: {},
    });
    expect(empty.operations[0]!.auth).toEqual({ bot: false, oauth2: [] });
  });

  it("OpenAPI's deprecated flag only when true; a $ref's ~1 and ~0 read as / and ~", () => {
    expect(readOne({ deprecated: true }).deprecated).toBe(true);
    expect(readOne({ deprecated: 'true' }).deprecated).toBe(false);
    const read = readOne({ requestBody: { $ref: '#/components/bodies/a~1b~0c' } }, '/x', {
      bodies: { 'a/b~c': { required: true, content: { 'multipart/form-data': {} } } },
    });
    expect(read.encoding).toBe('form-data');
  });
});

describe('what readSpec reads, at the edges of each rule', () => {
  it('OpenAPI versions: 3.10 and 3.1.10 are 3.x; v3.1 is not', () => {
    for (const openapi of ['3.10', '3.1.10']) expect(readSpec({ ...documentOf({}), openapi }).operations).toEqual([]);
    expect(refusal({ ...documentOf({}), openapi: 'v3.1' })).toBe(
      'OpenAPI v3.1 is not supported: the catalog reads OpenAPI 3.x',
    );
  });

  it("an operation's parameter overrides only the path item's of the same name and the same place", () => {
    const read = readSpec(
      documentOf({
        '/a/{a_id}': {
          parameters: [
            { name: 'a_id', in: 'path', schema: ID },
            { name: 'limit', in: 'query', schema: { maximum: 10 } },
          ],
          get: {
            operationId: 'x',
            parameters: [
              { name: 'after', in: 'query' },
              { name: 'a_id', in: 'query' },
            ],
          },
        },
      }),
    ).operations[0]!;
    expect(read.pathParameters).toStrictEqual([{ name: 'a_id', snowflake: true }]);
    expect(read.query).toStrictEqual([
      { name: 'limit', required: false, maximum: 10 },
      { name: 'after', required: false },
      { name: 'a_id', required: false },
    ]);
  });

  it('files[n] among the bytes of a form beside JSON, whatever else the form holds; files[n] exactly', () => {
    const withForm = (properties: Record<string, unknown>) =>
      readOne({
        requestBody: {
          content: { 'application/json': { schema: {} }, 'multipart/form-data': { schema: { properties } } },
        },
      }).encoding;
    const BYTES = { type: 'string', format: 'binary' };
    expect(withForm({ file: BYTES, 'files[0]': BYTES })).toBe('json+files');
    expect(withForm({ 'files[10]': BYTES })).toBe('json+files');
    expect(withForm({ 'xfiles[0]': BYTES, 'files[0]x': BYTES, 'files[]': BYTES })).toBe('json');
  });

  it('only 2xx answers are successes: a 102 or a 429 with a JSON list says nothing of the result', () => {
    const read = readOne({
      responses: {
        102: { content: { 'application/json': { schema: { type: 'array' } } } },
        200: { content: { 'application/json': { schema: { properties: { id: {} } } } } },
        429: { content: { 'application/json': { schema: { type: 'array' } } } },
      },
    });
    expect({ arrayResult: read.arrayResult, resultShape: read.resultShape }).toEqual({
      arrayResult: false,
      resultShape: { list: false, lists: [], members: ['id'] },
    });
  });

  it("OAuth2's scopes over every flow that names some, whatever the others are", () => {
    const read = readSpec({
      ...documentOf({ '/x': { get: { operationId: 'x', security: [{ OAuth2: ['identify', 'guilds'] }] } } }),
      components: {
        securitySchemes: {
          OAuth2: {
            flows: { broken: 'x', empty: {}, code: { scopes: { identify: '' } }, other: { scopes: { guilds: '' } } },
          },
        },
      },
    });
    expect(read.operations[0]!.auth).toEqual({ bot: false, oauth2: [] });
  });

  it('schema variants are followed 8 levels deep and no further; a schema that is its own member ends', () => {
    const nested = (levels: number): unknown =>
      levels === 0 ? { properties: { allowed_mentions: {} } } : { allOf: [nested(levels - 1)] };
    const mentions = (schema: unknown, schemas: Record<string, unknown> = {}) =>
      readOne({ requestBody: { content: { 'application/json': { schema } } } }, '/x', {
        schemas: { ...SCHEMAS, ...schemas },
      }).allowedMentionsIn;
    expect(mentions(nested(8))).toBe('body');
    expect(mentions(nested(9))).toBeNull();
    const loop = { $ref: '#/components/schemas/Loop' };
    expect(mentions(loop, { Loop: { anyOf: [loop, { properties: { allowed_mentions: {} } }] } })).toBe('body');
  });

  it("a form's bytes by format: binary, as well as by contentEncoding", () => {
    const read = readOne({
      requestBody: {
        content: {
          'application/json': { schema: {} },
          'multipart/form-data': { schema: { properties: { 'files[0]': { type: 'string', format: 'binary' } } } },
        },
      },
    });
    expect(read.encoding).toBe('json+files');
  });
});
