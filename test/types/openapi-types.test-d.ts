/**
 * Type tests of the operations typed from Discord's OpenAPI document (generated/spec-types.ts):
 * their results, bodies and queries are the document's schemas, never `unknown`, and misuse does
 * not compile. Where discord-api-types has a type, it is kept.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CreateLobbyBody,
  GetLobbyMessagesResult,
  GetLobbyResult,
  GetOpenidConnectUserinfoResult,
  TollgateClient,
} from '../../src/index.ts';
import type {
  RESTGetAPIChannelThreadsArchivedQuery,
  RESTGetAPIChannelThreadsArchivedPublicResult,
} from 'discord-api-types/v10';

declare const client: TollgateClient;

describe('operations typed from the document', () => {
  it("results are the document's schemas", () => {
    expectTypeOf(client.lobbies.get('1')).resolves.toEqualTypeOf<GetLobbyResult>();
    expectTypeOf<GetLobbyResult>().not.toBeUnknown();
    expectTypeOf<GetLobbyResult>().toHaveProperty('id');
    expectTypeOf(client.lobbies.messages.list('1')).resolves.toEqualTypeOf<GetLobbyMessagesResult>();
    expectTypeOf(client.oauth2.userinfo.get()).resolves.toEqualTypeOf<GetOpenidConnectUserinfoResult>();
    // 204 No Content: undefined.
    expectTypeOf(client.lobbies.members.me.leave('1')).resolves.toEqualTypeOf<undefined>();
  });

  it("bodies and queries are the document's, with ids as strings or bigints", () => {
    expectTypeOf(client.lobbies.create).parameter(0).toEqualTypeOf<CreateLobbyBody>();
    void client.lobbies.messages.list('1', { limit: 50 });
    void client.channels.threads.search('1', { limit: 25, offset: 0, min_id: 1n });
    // @ts-expect-error a query parameter the document does not have
    void client.lobbies.messages.list('1', { before: '1' });
    // @ts-expect-error a query parameter of the wrong type
    void client.lobbies.messages.list('1', { limit: 'many' });
    // @ts-expect-error a body field of the wrong type
    void client.lobbies.create({ idle_timeout_seconds: 'soon' });
  });

  it('where discord-api-types has a type, it is kept', () => {
    expectTypeOf(
      client.channels.threads.archived.public.list('1'),
    ).resolves.toEqualTypeOf<RESTGetAPIChannelThreadsArchivedPublicResult>();
    const query: RESTGetAPIChannelThreadsArchivedQuery = { before: '2026-04-22T00:00:00.000Z', limit: 10 };
    void client.channels.threads.archived.public.list('1', query);
    // @ts-expect-error the archive is paged by time, not by id
    void client.channels.threads.archived.public.list('1', { after: '1' });
  });
});
