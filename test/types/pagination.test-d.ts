/**
 * Type tests of the generated iterators: each yields its list's item type (from the operation's
 * result type), takes the list's query with one cursor and `max`, and refuses misuse.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  APIAuditLogEntry,
  APIBan,
  APIGuildMember,
  APIMessage,
  RESTGetAPIAuditLogResult,
  RESTGetAPIChannelMessagesPinsResult,
} from 'discord-api-types/v10';
import type { TollgateClient } from '../../src/index.ts';

declare const client: TollgateClient;

describe('iterators of paged lists', () => {
  it("yield the list's items, and pages() the results", () => {
    expectTypeOf(client.channels.messages.listAll('1')).toEqualTypeOf<AsyncIterable<APIMessage>>();
    expectTypeOf(client.guilds.members.listAll('1')).toEqualTypeOf<AsyncIterable<APIGuildMember>>();
    expectTypeOf(client.guilds.bans.listAll('1')).toEqualTypeOf<AsyncIterable<APIBan>>();
    expectTypeOf(client.guilds.auditLogs.getAll('1')).toEqualTypeOf<AsyncIterable<APIAuditLogEntry>>();
    expectTypeOf(client.guilds.auditLogs.getPages('1')).toEqualTypeOf<AsyncIterable<RESTGetAPIAuditLogResult>>();
    expectTypeOf(client.guilds.messages.searchAll('1', { content: 'x' })).toEqualTypeOf<
      AsyncIterable<Omit<APIMessage, 'reactions'>>
    >();
    expectTypeOf(client.channels.messages.pins.listAll('1')).toEqualTypeOf<
      AsyncIterable<RESTGetAPIChannelMessagesPinsResult['items'][number]>
    >();
  });

  it("take a cursor, the list's own parameters and max", () => {
    void client.channels.messages.listAll('1', { before: '2', max: 5000 });
    void client.channels.messages.listAll('1', { after: 2n });
    void client.guilds.members.listAll('1', { after: '0', max: 10 });
    void client.guilds.auditLogs.getAll('1', { user_id: '3', action_type: 1, before: '9' });
    void client.channels.messages.pins.listAll('1', { before: '2026-04-22T00:00:00.000Z' });
    void client.guilds.messages.searchAll(
      '1',
      { content: 'x', offset: 25, max: 100 },
      { signal: new AbortController().signal },
    );
  });

  it('refuse misuse at compile time', () => {
    // @ts-expect-error before and after exclude each other: the cursor sets the direction
    void client.channels.messages.listAll('1', { before: '2', after: '3' });
    // @ts-expect-error the members list pages forward only
    void client.guilds.members.listAll('1', { before: '2' });
    // @ts-expect-error the iterator picks the page size
    void client.channels.messages.listAll('1', { limit: 50 });
    // @ts-expect-error around is not a walk
    void client.channels.messages.listAll('1', { around: '2' });
    // @ts-expect-error max is a number
    void client.channels.messages.listAll('1', { max: '5' });
    // @ts-expect-error pins page by time, backwards
    void client.channels.messages.pins.listAll('1', { after: '2' });
    // @ts-expect-error a cursor-paged list takes no offset
    void client.channels.messages.listAll('1', { offset: 100 });
  });
});
