/**
 * Type tests (run by `npm test` through vitest's typecheck and by `npm run typecheck`): the
 * public signatures accept what they should, and misuse does not compile.
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  createClient,
  routeKeyOf,
  type ApiPromise,
  type RateLimitI64Error,
  type RateLimitUtf8Error,
  type BucketRecord,
  type FileUpload,
  type FormFields,
  type TollgateClient,
  type WithResponse,
  type AllowedMentions,
} from '../../src/index.ts';
import type {
  RESTDeleteAPIChannelMessageResult,
  RESTDeleteAPIGuildMemberResult,
  RESTGetAPIChannelMessagesResult,
  RESTGetAPIGatewayResult,
  RESTGetAPIGuildMembersSearchResult,
  RESTGetAPIInviteResult,
  RESTPostAPIApplicationCommandsResult,
  RESTPostAPIChannelMessageResult,
  RESTPostAPIGuildStickerResult,
  RESTPostAPIInteractionFollowupResult,
  APIAllowedMentions,
  RESTPatchAPIInteractionOriginalResponseResult,
  RESTPostAPIWebhookWithTokenResult,
  RESTPostOAuth2AccessTokenResult,
  RESTPostOAuth2ClientCredentialsResult,
} from 'discord-api-types/v10';
import { GuildWidgetStyle } from 'discord-api-types/v10';
import type { RESTPostAPIGuildIntegrationSyncResult as V6IntegrationSyncResult } from 'discord-api-types/v6';

declare const client: TollgateClient;
const signal = new AbortController().signal;

describe('public signatures', () => {
  it('the contract names exist with their shapes', () => {
    expectTypeOf(createClient).parameter(0).toMatchTypeOf<{ baseUrl?: string; token?: string } | undefined>();
    expectTypeOf(routeKeyOf).toEqualTypeOf<(method: string, path: string) => string>();
    expectTypeOf<RateLimitUtf8Error>().toMatchTypeOf<Error>();
    expectTypeOf<RateLimitI64Error>().toMatchTypeOf<Error>();
    expectTypeOf(client.buckets.get).returns.toEqualTypeOf<Promise<Readonly<BucketRecord> | undefined>>();
    expectTypeOf(client.request).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(client.close).returns.toEqualTypeOf<Promise<void>>();
  });

  it('ids are decimal strings or bigints, in path order, then body or query, then options; results are typed', () => {
    expectTypeOf(client.channels.messages.delete('1', 2n)).toEqualTypeOf<
      ApiPromise<RESTDeleteAPIChannelMessageResult>
    >();
    expectTypeOf(client.channels.messages.create('1', { content: 'x' }, { signal })).toEqualTypeOf<
      ApiPromise<RESTPostAPIChannelMessageResult>
    >();
    expectTypeOf(client.channels.messages.list('1', { limit: 50, before: 9n })).toEqualTypeOf<
      ApiPromise<RESTGetAPIChannelMessagesResult>
    >();
    expectTypeOf(client.gateway.get(undefined, { signal })).toEqualTypeOf<ApiPromise<RESTGetAPIGatewayResult>>();
    expectTypeOf(client.guilds.members.list<{ id: string }[]>('1')).toEqualTypeOf<ApiPromise<{ id: string }[]>>();
    expectTypeOf(client.webhooks.execute('1', 'token', { content: 'x' }, { query: { wait: true } })).toEqualTypeOf<
      ApiPromise<RESTPostAPIWebhookWithTokenResult>
    >();
    expectTypeOf(client.invites.get('code', { with_counts: true })).toEqualTypeOf<ApiPromise<RESTGetAPIInviteResult>>();
    // v6-only operations take their types from discord-api-types/v6; the few without any stay unknown.
    expectTypeOf(client.guilds.integrations.sync('1', '2')).toEqualTypeOf<ApiPromise<V6IntegrationSyncResult>>();
    expectTypeOf(client.channels.messages.ack('1', '2')).toEqualTypeOf<ApiPromise<unknown>>();
  });

  it('withResponse gives the typed result with its Response; withToken a client of the same type', () => {
    expectTypeOf(client.channels.messages.create('1', { content: 'x' }).withResponse()).toEqualTypeOf<
      Promise<WithResponse<RESTPostAPIChannelMessageResult>>
    >();
    expectTypeOf(client.withToken('Bearer abc')).toEqualTypeOf<TollgateClient>();
    expectTypeOf(client.interactions.followups.create('1', 'token', { content: 'x' })).toEqualTypeOf<
      ApiPromise<RESTPostAPIInteractionFollowupResult>
    >();
    // discord-api-types' own allowed_mentions object is a default as it is.
    expectTypeOf<APIAllowedMentions>().toMatchTypeOf<AllowedMentions>();
    // @ts-expect-error: not a kind of mention
    createClient({ allowedMentions: { parse: ['everybody'] } });
  });

  it('v10 routes beyond the seed are typed too', () => {
    expectTypeOf(client.applications.commands.create('1', { name: 'ping', description: 'Replies' })).toEqualTypeOf<
      ApiPromise<RESTPostAPIApplicationCommandsResult>
    >();
    expectTypeOf(client.interactions.callback.create('1', 'token', { type: 1 })).toEqualTypeOf<ApiPromise<undefined>>();
    // @ts-expect-error an interaction response type that does not exist
    void client.interactions.callback.create('1', 'token', { type: 99 });
  });

  it('actions that enter the audit log take a reason', () => {
    expectTypeOf(client.guilds.members.remove('1', '2', undefined, { reason: 'spam' })).toEqualTypeOf<
      ApiPromise<RESTDeleteAPIGuildMemberResult>
    >();
  });

  it('results are usable without casts', async () => {
    const message = await client.channels.messages.create('1', { content: 'x' });
    expectTypeOf(message.id).toEqualTypeOf<string>();
    expectTypeOf(message.content).toEqualTypeOf<string>();
    const member = await client.guilds.members.get('1', '2');
    expectTypeOf(member.roles).toEqualTypeOf<string[]>();
  });

  it('form bodies, binary results, links and empty results are typed', () => {
    const upload: FileUpload = { name: 's.png', data: new Uint8Array(4) };
    expectTypeOf<FormFields<{ file: unknown; name: string }>>().toEqualTypeOf<{
      readonly file: FileUpload;
      readonly name: string;
    }>();
    const sticker = { name: 'tg', description: 'toll', tags: 'gate', file: upload };
    expectTypeOf(client.guilds.stickers.create('1', sticker)).toEqualTypeOf<
      ApiPromise<RESTPostAPIGuildStickerResult>
    >();
    // @ts-expect-error a form's file field is { name, data }, not the bytes alone
    void client.guilds.stickers.create('1', { ...sticker, file: new Uint8Array(4) });
    expectTypeOf(client.guilds.widgetImage.get('1', { style: GuildWidgetStyle.Banner1 })).toEqualTypeOf<
      ApiPromise<ArrayBuffer>
    >();
    expectTypeOf(
      client.oauth2.authorization.url({ client_id: '1', scope: 'bot', permissions: '8' }),
    ).toEqualTypeOf<string>();
    // @ts-expect-error the authorization page needs the client id
    void client.oauth2.authorization.url({ scope: 'bot' });
    // @ts-expect-error a member search needs its query
    void client.guilds.members.search('1');
    // @ts-expect-error …with the required \`query\` in it
    void client.guilds.members.search('1', { limit: 5 });
    expectTypeOf(client.guilds.members.search('1', { query: 'toll' })).toEqualTypeOf<
      ApiPromise<RESTGetAPIGuildMembersSearchResult>
    >();
    // @ts-expect-error an authorization parameter that does not exist
    void client.oauth2.authorization.url({ client_id: '1', scopes: 'bot' });
    expectTypeOf(
      client.oauth2.token.create({
        grant_type: 'refresh_token',
        refresh_token: 'r',
        client_id: '1',
        client_secret: 's',
      }),
    ).toEqualTypeOf<ApiPromise<RESTPostOAuth2AccessTokenResult | RESTPostOAuth2ClientCredentialsResult>>();
    // @ts-expect-error a grant type OAuth2 does not have
    void client.oauth2.token.create({ grant_type: 'password', username: 'u' });
    expectTypeOf(client.applications.commands.delete('1', '2')).toEqualTypeOf<ApiPromise<undefined>>();
    expectTypeOf(client.interactions.original.edit('1', 'token', { content: 'done' })).toEqualTypeOf<
      ApiPromise<RESTPatchAPIInteractionOriginalResponseResult>
    >();
  });

  it('misuse does not compile', () => {
    // @ts-expect-error ids are not numbers (precision is lost above 2^53)
    void client.channels.get(81384788765712384);
    // @ts-expect-error a missing id
    void client.channels.messages.delete('1');
    // @ts-expect-error one argument too many
    void client.gateway.get({ signal }, 'extra');
    // @ts-expect-error a body is required
    void client.channels.messages.edit('1', '2');
    // @ts-expect-error the body is JSON, not a string
    void client.channels.edit('1', 'name');
    // @ts-expect-error FormData only where the catalog says multipart
    void client.channels.edit('1', new FormData());
    // @ts-expect-error an undocumented query parameter
    void client.channels.messages.list('1', { limt: 5 });
    // @ts-expect-error a read without a body takes no body
    void client.channels.get('1', { content: 'x' }, {});
    // @ts-expect-error options are an object
    void client.users.me.get('now');
    // @ts-expect-error a misspelt body field (contnet)
    void client.channels.messages.create('1', { contnet: 'x' });
    // @ts-expect-error a body field of the wrong type
    void client.channels.edit('1', { name: 5 });
    // @ts-expect-error a query parameter of the wrong type
    void client.channels.messages.list('1', { limit: 'fifty' });
    // @ts-expect-error no audit-log reason on a read
    void client.channels.get('1', { reason: 'x' });
    // @ts-expect-error names not in the catalog do not exist
    void client.channels.messages.fetch('1', '2');
    // @ts-expect-error the bucket map is read-only
    client.buckets = { get: async () => undefined };
  });
});
