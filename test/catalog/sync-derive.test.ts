/**
 * The naming rules of scripts/sync/derive.ts, the cases sync.test.ts's table does not hold: words
 * of segments, ids that name a resource, the verbs a path or an operationId brings, the problems
 * a name can have and the names proposed instead.
 */
import { describe, expect, it } from 'vitest';
import { draftRouteKey, majorOf, nameOf, nameProblem, proposeName, wordOf } from '../../scripts/sync/derive.ts';
import type { SpecParameter, SpecPathParameter } from '../../scripts/sync/openapi.ts';

const ids = (...names: string[]): SpecPathParameter[] => names.map((name) => ({ name, snowflake: true }));

describe('wordOf', () => {
  it.each([
    ['thread-members', 'threadMembers'],
    ['widget.json', 'widgetJson'],
    ['@me', 'me'],
    ['audit_logs', 'auditLogs'],
    ['a--b__c', 'aBC'],
    ['me@', 'me@'],
  ])('%s → %s', (segment, word) => expect(wordOf(segment)).toBe(word));
});

describe('nameOf, beyond the table', () => {
  const name = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    extra: {
      operationId?: string;
      arrayResult?: boolean;
      pathParameters?: SpecPathParameter[];
      query?: SpecParameter[];
    } = {},
    methodsAtPath: string[] = [],
  ) => nameOf({ method, path, operationId: 'x', arrayResult: false, ...extra }, methodsAtPath);

  it('an id right after an id names a resource: its own words past the shared ones, plural', () => {
    const path =
      '/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}/{guild_scheduled_event_exception_id}/users';
    const pathParameters = ids('guild_id', 'guild_scheduled_event_id', 'guild_scheduled_event_exception_id');
    expect(name('GET', path, { pathParameters, arrayResult: true })).toBe(
      'guilds.scheduledEvents.exceptions.users.list',
    );
    // Each word is dropped only while it matches, in order: `guild_entry_box` after `guild_scheduled` → entryBoxes.
    expect(
      name('GET', '/a/{guild_scheduled_id}/{guild_entry_box_id}', {
        pathParameters: ids('guild_scheduled_id', 'guild_entry_box_id'),
      }),
    ).toBe('a.entryBoxes.get');
  });

  it('no resource from an id after an id that is not a snowflake, not named _id, or shares every word', () => {
    expect(name('GET', '/webhooks/{webhook_id}/{webhook_token}', { pathParameters: ids('webhook_id') })).toBe(
      'webhooks.get',
    );
    const notId = [...ids('a_id'), { name: 'a_b', snowflake: true }];
    expect(name('GET', '/x/{a_id}/{a_b}', { pathParameters: notId })).toBe('x.get');
    expect(name('GET', '/x/{a_id}/{a_b_id}', { pathParameters: ids('a_id') })).toBe('x.get');
    const typedAsText = [...ids('a_id'), { name: 'a_b_id', snowflake: false }];
    expect(name('GET', '/x/{a_id}/{a_b_id}', { pathParameters: typedAsText })).toBe('x.get');
    // After a value that is not an id, an id of the same words names nothing more.
    expect(name('GET', '/x/{thing}/{thing_id}', { pathParameters: ids('thing_id') })).toBe('x.get');
    expect(name('GET', '/x/{thing_id}/{thing_id}', { pathParameters: ids('thing_id') })).toBe('x.get');
    expect(name('GET', '/{a_id}/{a_b_id}', { pathParameters: ids('a_id', 'a_b_id') })).toBe('bs.get');
  });

  it.each([
    ['entry', 'entries'],
    ['day', 'days'],
    ['box', 'boxes'],
    ['match', 'matches'],
    ['wish', 'wishes'],
    ['bus', 'buses'],
    ['log', 'logs'],
  ])('an id-named resource is plural: %s → %s', (word, plural) => {
    const second = `a_${word}_id`;
    expect(name('GET', `/x/{a_id}/{${second}}`, { pathParameters: ids('a_id', second) })).toBe(`x.${plural}.get`);
  });

  it('a path ending in a verb, singular or plural, takes it; a path of one word does not', () => {
    expect(name('GET', '/guilds/{guild_id}/scheduled-events/{id}/users/counts')).toBe(
      'guilds.scheduledEvents.users.count',
    );
    expect(name('POST', '/channels/{channel_id}/messages/bulk-delete')).toBe('channels.messages.bulkDelete');
    expect(name('GET', '/search')).toBe('search.get');
    expect(name('GET', '/a/things')).toBe('a.things.get');
    // Only a final s comes off: `scount` is not `count`.
    expect(name('GET', '/a/b/scount')).toBe('a.b.scount.get');
  });

  it("the operationId's first word, where it is a verb of the vocabulary and not a plain one", () => {
    expect(name('POST', '/interactions/{id}/{token}/callback', { operationId: 'execute_callback' })).toBe(
      'interactions.callback.execute',
    );
    expect(name('POST', '/lobbies/{lobby_id}', { operationId: 'sync_lobby' })).toBe('lobbies.sync');
    expect(name('POST', '/lobbies', { operationId: 'create_lobby' })).toBe('lobbies.create');
    expect(name('POST', '/lobbies', { operationId: 'edit_lobby' })).toBe('lobbies.create');
  });

  it('a read is a list when it answers an array, its id says list_, or it pages; never at an item', () => {
    expect(name('GET', '/a/things')).toBe('a.things.get');
    expect(name('GET', '/a/things', { arrayResult: true })).toBe('a.things.list');
    expect(name('GET', '/a/things', { operationId: 'list_things' })).toBe('a.things.list');
    expect(name('GET', '/a/things', { operationId: 'get_list_things' })).toBe('a.things.get');
    const query = (...names: string[]) => names.map((n) => ({ name: n, required: false }));
    expect(name('GET', '/a/things', { query: query('limit', 'before') })).toBe('a.things.list');
    expect(name('GET', '/a/things', { query: query('limit', 'after') })).toBe('a.things.list');
    expect(name('GET', '/a/things', { query: query('limit') })).toBe('a.things.get');
    expect(name('GET', '/a/things', { query: query('after') })).toBe('a.things.get');
    expect(name('GET', '/a/{thing_id}', { arrayResult: true, operationId: 'list_x' })).toBe('a.get');
  });

  it('PUT: add at an item or @me, replace at a collection; DELETE: leave at @me, remove beside a PUT, else delete', () => {
    expect(name('PUT', '/a/{id}')).toBe('a.add');
    expect(name('PUT', '/a/@me')).toBe('a.me.add');
    expect(name('PUT', '/a/things')).toBe('a.things.replace');
    expect(name('DELETE', '/a/@me', {}, ['PUT'])).toBe('a.me.leave');
    expect(name('DELETE', '/a/{id}', {}, ['PUT', 'DELETE'])).toBe('a.remove');
    expect(name('DELETE', '/a/{id}', {}, ['GET', 'DELETE'])).toBe('a.delete');
    expect(name('DELETE', '/a/things', {}, ['PUT', 'DELETE'])).toBe('a.things.delete');
    expect(name('PATCH', '/a/{id}')).toBe('a.edit');
  });
});

describe('nameProblem: why a name cannot stand beside the others', () => {
  const taken = new Set(['guilds.get', 'guilds.members.list', 'channels.scheduledEvents.users.list']);
  it.each<[string, string | undefined]>([
    ['guilds.edit', undefined],
    ['guilds.get', '"guilds.get" is already an operation'],
    ['guilds.members', '"guilds.members" is the namespace of "guilds.members.list"'],
    ['guilds.get.all', 'its namespace "guilds.get" is already an operation'],
    [
      'guildsMembers.list',
      '"guildsMembers.list" and "guilds.members.list" would write the same types (GuildsMembersListQuery)',
    ],
    [
      'channels.scheduledEventsUsers.get',
      'namespaces "channels.scheduledEventsUsers" and "channels.scheduledEvents.users" would write the same class ChannelsScheduledEventsUsersApi',
    ],
    ['channels.scheduledEvents.get', undefined],
    // Every namespace of each is compared, not only the last: a.bC against a.b.c.
    [
      'channels.scheduledEventsUsers.all.get',
      'namespaces "channels.scheduledEventsUsers" and "channels.scheduledEvents.users" would write the same class ChannelsScheduledEventsUsersApi',
    ],
  ])('%s', (candidate, problem) => {
    expect(nameProblem(candidate, taken)).toBe(problem);
  });
});

describe('proposeName: the nearest free name', () => {
  it('joins the last two namespace words, where that writes no identifier already written', () => {
    // The natural name's namespace `a.b.c` is an operation: `a.bC` is free.
    expect(proposeName('a.b.c.list', new Set(['a.b.c']))).toBe('a.bC.list');
    // Taken too: `aB.c` would write the class `a.b` writes (ABApi), so the last word is numbered.
    expect(proposeName('a.b.c.list', new Set(['a.b.c', 'a.bC.list']))).toBe('a.b.c2.list');
  });

  it('then numbers the last namespace word, 2 to 9; a top-level resource is never numbered', () => {
    expect(proposeName('a.b.list', new Set(['a.b.list', 'aB.list']))).toBe('a.b2.list');
    const upTo = (last: number) =>
      new Set(['a.b.list', 'aB.list', ...Array.from({ length: last - 1 }, (_, i) => `a.b${i + 2}.list`)]);
    expect(proposeName('a.b.list', upTo(8))).toBe('a.b9.list');
    expect(proposeName('a.b.list', upTo(9))).toBeUndefined();
    expect(proposeName('a.list', new Set(['a.list']))).toBeUndefined();
    // Two namespace words join at the top too, before any number.
    expect(proposeName('a.b.list', new Set(['a.b']))).toBe('aB.list');
  });
});

describe('a new route: its key and its major parameter', () => {
  it('codes, emoji and other named values by their name in words', () => {
    const kinds = { guild_id: 'snowflake', emoji_name: 'emoji', interaction_token: 'secret' } as const;
    expect(draftRouteKey('/guilds/{guild_id}/emojis/{emoji_name}', kinds)).toBe('GuildsIdEmojisEmojiName');
    expect(draftRouteKey('/interactions/{guild_id}/{interaction_token}/callback', kinds)).toBe(
      'InteractionsIdTokenCallback',
    );
    expect(draftRouteKey('/guilds/{unknown_thing}/widget.json', kinds)).toBe('GuildsUnknownThingWidgetJson');
  });

  it("v10's majors only where the path opens with their resource and its id", () => {
    expect(majorOf('/channels/{channel_id}')).toBe('channel_id');
    expect(majorOf('/guilds/{guild_id}/members')).toBe('guild_id');
    expect(majorOf('/channels/{guild_id}')).toBeNull();
    expect(majorOf('/guild/{guild_id}')).toBeNull();
    expect(majorOf('/channels')).toBeNull();
    expect(majorOf('/webhooks/{webhook_id}')).toBeNull();
  });
});
