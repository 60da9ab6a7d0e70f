/**
 * The facts the document decides (scripts/sync/facts.ts) and the pagination proposed for a new
 * list (scripts/sync/pagination.ts): pure rules, one row each.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogOperation } from '../../catalog/schema.ts';
import {
  catalogFactsOf,
  describeFact,
  factsOf,
  sameAuth,
  sameFact,
  type SyncedFacts,
} from '../../scripts/sync/facts.ts';
import type { SpecOperation, SpecParameter } from '../../scripts/sync/openapi.ts';
import { proposePagination } from '../../scripts/sync/pagination.ts';

const READ: SpecOperation = {
  operationId: 'x',
  method: 'GET',
  path: '/x',
  summary: 'X',
  pathParameters: [],
  query: [],
  body: 'none',
  encoding: 'json',
  attachmentsIn: null,
  allowedMentionsIn: null,
  binaryResult: false,
  arrayResult: false,
  emptyResult: false,
  resultShape: { list: false, lists: [], members: [] },
  auth: { bot: true },
  deprecated: false,
};
const NO_FACTS: SyncedFacts = {
  query: undefined,
  queryRequired: undefined,
  body: undefined,
  encoding: { encoding: undefined, attachmentsIn: undefined },
  allowedMentionsIn: undefined,
  binaryResult: undefined,
  auth: undefined,
};

describe('factsOf: what the document says, as the catalog writes it (defaults left out)', () => {
  it('a plain read by a bot token says nothing', () => {
    expect(factsOf(READ)).toEqual(NO_FACTS);
  });

  it('a read with a required query: the names in order, and required', () => {
    const query = [
      { name: 'limit', required: false },
      { name: 'user_id', required: true },
    ];
    expect(factsOf({ ...READ, query })).toEqual({ ...NO_FACTS, query: ['limit', 'user_id'], queryRequired: true });
    expect(factsOf({ ...READ, query: [query[0]!] })).toEqual({ ...NO_FACTS, query: ['limit'] });
  });

  it("a call with a body: its query is never required; the body's encoding, holder and allowed_mentions", () => {
    const create: SpecOperation = {
      ...READ,
      method: 'POST',
      query: [{ name: 'wait', required: true }],
      body: 'required',
      encoding: 'json+files',
      attachmentsIn: 'data',
      allowedMentionsIn: 'data',
    };
    expect(factsOf(create)).toEqual({
      ...NO_FACTS,
      query: ['wait'],
      body: 'required',
      encoding: { encoding: 'json+files', attachmentsIn: 'data' },
      allowedMentionsIn: 'data',
    });
    expect(
      factsOf({ ...create, body: 'optional', encoding: 'json', attachmentsIn: null, allowedMentionsIn: null }),
    ).toEqual({
      ...NO_FACTS,
      query: ['wait'],
      body: 'optional',
    });
  });

  it('no body: whatever the encoding fields say is not a fact; bytes and auth other than a bot token are', () => {
    const odd: SpecOperation = { ...READ, encoding: 'form-data', attachmentsIn: 'message', allowedMentionsIn: 'body' };
    expect(factsOf(odd)).toEqual(NO_FACTS);
    expect(factsOf({ ...READ, binaryResult: true, auth: { bot: true, oauth2: ['identify'] } })).toEqual({
      ...NO_FACTS,
      binaryResult: true,
      auth: { bot: true, oauth2: ['identify'] },
    });
  });

  it('catalogFactsOf reads the same facts off a catalog operation', () => {
    const operation: CatalogOperation = {
      name: 'a.create',
      method: 'POST',
      summary: 'A',
      query: ['wait'],
      queryRequired: true,
      body: 'required',
      encoding: 'json+files',
      attachmentsIn: 'message',
      allowedMentionsIn: 'message',
      binaryResult: true,
      auth: { bot: false, none: true },
    };
    expect(catalogFactsOf(operation)).toEqual({
      query: ['wait'],
      queryRequired: true,
      body: 'required',
      encoding: { encoding: 'json+files', attachmentsIn: 'message' },
      allowedMentionsIn: 'message',
      binaryResult: true,
      auth: { bot: false, none: true },
    });
  });
});

describe('sameFact and sameAuth: the catalog says what the document says', () => {
  it.each<[string, keyof SyncedFacts, Partial<SyncedFacts>, Partial<SyncedFacts>, boolean]>([
    ['the same query in another order', 'query', { query: ['a', 'b'] }, { query: ['b', 'a'] }, true],
    ['a query with one more', 'query', { query: ['a'] }, { query: ['a', 'b'] }, false],
    ['other names of the same letters', 'query', { query: ['ab', 'c'] }, { query: ['a', 'bc'] }, false],
    ['no query and none', 'query', {}, {}, true],
    ['no query against one', 'query', {}, { query: ['a'] }, false],
    [
      'json written and json left out',
      'encoding',
      { encoding: { encoding: undefined, attachmentsIn: undefined } },
      { encoding: { encoding: undefined, attachmentsIn: undefined } },
      true,
    ],
    [
      'another encoding',
      'encoding',
      { encoding: { encoding: 'form-data', attachmentsIn: undefined } },
      { encoding: { encoding: 'urlencoded', attachmentsIn: undefined } },
      false,
    ],
    [
      'attachments held elsewhere',
      'encoding',
      { encoding: { encoding: 'json+files', attachmentsIn: 'data' } },
      { encoding: { encoding: 'json+files', attachmentsIn: undefined } },
      false,
    ],
    ['a bot token written and left out', 'auth', { auth: { bot: true } }, {}, true],
    [
      'scopes in another order',
      'auth',
      { auth: { bot: false, oauth2: ['a', 'b'] } },
      { auth: { bot: false, oauth2: ['b', 'a'] } },
      true,
    ],
    [
      'any scope against one',
      'auth',
      { auth: { bot: false, oauth2: [] } },
      { auth: { bot: false, oauth2: ['a'] } },
      false,
    ],
    ['no token allowed against not', 'auth', { auth: { bot: true, none: true } }, { auth: { bot: true } }, false],
    [
      'a bot token against none',
      'auth',
      { auth: { bot: false, oauth2: [] } },
      { auth: { bot: true, oauth2: [] } },
      false,
    ],
    ['OAuth2 against none of it', 'auth', { auth: { bot: true, oauth2: [] } }, { auth: { bot: true } }, false],
    ['a required body against an optional one', 'body', { body: 'required' }, { body: 'optional' }, false],
    ['bytes and bytes', 'binaryResult', { binaryResult: true }, { binaryResult: true }, true],
  ])('%s', (_, fact, catalog, document, same) => {
    expect(sameFact(fact, { ...NO_FACTS, ...catalog }, { ...NO_FACTS, ...document })).toBe(same);
  });

  it('sameAuth compares bot, none and the scopes as sets', () => {
    expect(sameAuth({ bot: true, oauth2: ['x', 'y'] }, { bot: true, oauth2: ['y', 'x'] })).toBe(true);
    expect(sameAuth({ bot: true, oauth2: ['ab', 'c'] }, { bot: true, oauth2: ['a', 'bc'] })).toBe(false);
    expect(sameAuth({ bot: true, none: true }, { bot: true })).toBe(false);
  });
});

describe('describeFact: each fact as a report line writes it', () => {
  it.each<[keyof SyncedFacts, Partial<SyncedFacts>, string]>([
    ['query', { query: ['limit', 'after'] }, 'limit, after'],
    ['query', {}, '(none)'],
    ['queryRequired', { queryRequired: true }, 'required'],
    ['queryRequired', {}, 'optional'],
    ['body', { body: 'optional' }, 'optional'],
    ['body', {}, 'none'],
    ['binaryResult', { binaryResult: true }, 'bytes'],
    ['binaryResult', {}, 'JSON'],
    ['allowedMentionsIn', { allowedMentionsIn: 'message' }, 'allowed_mentions in message'],
    ['allowedMentionsIn', {}, 'no allowed_mentions'],
    ['encoding', { encoding: { encoding: 'json+files', attachmentsIn: 'data' } }, 'json+files (attachments in data)'],
    ['encoding', { encoding: { encoding: 'form-data', attachmentsIn: undefined } }, 'form-data'],
    ['encoding', {}, 'json'],
    ['auth', {}, 'bot token'],
    ['auth', { auth: { bot: true, oauth2: [], none: true } }, 'bot token or OAuth2 (any scope) or no token'],
    ['auth', { auth: { bot: false, oauth2: ['identify', 'guilds'] } }, 'OAuth2 [identify, guilds]'],
  ])('%s %j → %s', (fact, facts, line) => {
    expect(describeFact(fact, { ...NO_FACTS, ...facts })).toBe(line);
  });
});

describe('proposePagination: the facts a new list gets where the document shows them', () => {
  const param = (name: string, extra: Partial<SpecParameter> = {}): SpecParameter => ({
    name,
    required: false,
    ...extra,
  });
  const LIMIT = param('limit', { maximum: 100 });
  const list = { list: true, lists: [], members: [] };
  const wrapper = (lists: string[], members: string[] = []) => ({ list: false, lists, members });
  const propose = (
    query: SpecParameter[],
    resultShape: SpecOperation['resultShape'] = list,
    method: SpecOperation['method'] = 'GET',
  ) => proposePagination({ method, query, resultShape });

  it('nothing for a call that is not a paged read', () => {
    expect(propose([LIMIT, param('after')], list, 'POST')).toEqual({});
    expect(propose([param('limit'), param('after')])).toEqual({}); // no maximum
    expect(propose([LIMIT])).toEqual({}); // no cursor
    expect(propose([LIMIT, param('around')])).toEqual({});
  });

  it('before and after on a list: oldest-first, ascending pages', () => {
    expect(propose([LIMIT, param('before'), param('after')])).toStrictEqual({
      facts: {
        cursor: 'id',
        parameters: ['before', 'after'],
        order: 'oldest-first',
        pageOrder: 'ascending',
        limit: 100,
        cursorFrom: 'id',
      },
      note: "pagination proposed (id cursors before, after, 100 a page): check the order and the item's id field",
    });
    expect(propose([param('after'), LIMIT]).facts).toMatchObject({ parameters: ['after'], order: 'oldest-first' });
  });

  it('before alone: newest-first, descending pages; a wrapper of one list and has_more is read from it', () => {
    expect(propose([LIMIT, param('before')], wrapper(['threads'], ['has_more', 'total_results'])).facts).toEqual({
      cursor: 'id',
      parameters: ['before'],
      order: 'newest-first',
      pageOrder: 'descending',
      limit: 100,
      items: 'threads',
      cursorFrom: 'id',
      hasMore: 'has_more',
    });
  });

  it('offsets with their maxima, and the totals a wrapper names', () => {
    const offset = param('offset', { maximum: 9975 });
    expect(
      propose([param('limit', { maximum: 25 }), offset], wrapper(['messages'], ['total_results', 'has_more'])),
    ).toEqual({
      facts: {
        cursor: 'offset',
        parameters: [],
        order: 'newest-first',
        pageOrder: 'descending',
        limit: 25,
        maxOffset: 9975,
        items: 'messages',
        cursorFrom: 'id',
        hasMore: 'has_more',
        total: 'total_results',
      },
      note: 'pagination proposed (offsets): check the sort order and the item',
    });
    const byHand = 'a list paged by offset without a maximum offset or a list member: add paginate by hand';
    expect(propose([LIMIT, param('offset')], wrapper(['messages']))).toEqual({ note: byHand });
    expect(propose([LIMIT, offset], list)).toEqual({ note: byHand });
  });

  it('left for a person: a timestamp cursor, a wrapper of several lists or of none', () => {
    const byTimestamp = {
      note: 'a list paged by timestamp: add paginate by hand, with the item field the cursor comes from',
    };
    expect(propose([LIMIT, param('before', { timestamp: true })])).toEqual(byTimestamp);
    expect(propose([LIMIT, param('before', { timestamp: true }), param('after')])).toEqual(byTimestamp);
    expect(propose([LIMIT, param('after')], wrapper(['threads', 'members']))).toEqual({
      note: 'a paged list whose items the document does not single out (threads, members): add paginate by hand',
    });
    expect(propose([LIMIT, param('after')], wrapper([]))).toEqual({
      note: 'a paged list whose items the document does not single out (no list): add paginate by hand',
    });
  });
});
