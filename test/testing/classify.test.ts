/**
 * The reference service's own classification (src/testing/classify.ts), checked against the
 * specs' words and examples, never against the client's classifier: the service is the oracle
 * the client is tested against, so it must be right on its own.
 */
import { describe, expect, it } from 'vitest';
import { classifyV10Request, v6BucketKeyOf } from '../../src/testing/classify.ts';

const CHANNEL = '81384788765712384';
const GUILD = '41771983423143937';
const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
/** V20: an id made at `ms` (ms since the Unix epoch): `(ms − 1420070400000) << 22`. */
const idMadeAt = (ms: number) => String(BigInt(ms - 1_420_070_400_000) << 22n);
const v10 = (method: string, path: string) => classifyV10Request(method, path, NOW);

describe('v10: route template and top-level resource (docs/spec/v10-rate-limits.md §4, V4)', () => {
  it.each([
    ['GET', `/channels/${CHANNEL}`, 'GET /channels/:id', `channels/${CHANNEL}`],
    ['POST', `/channels/${CHANNEL}/messages`, 'POST /channels/:id/messages', `channels/${CHANNEL}`],
    ['GET', `/guilds/${GUILD}/members/1`, 'GET /guilds/:id/members/:id', `guilds/${GUILD}`],
    ['GET', '/webhooks/5', 'GET /webhooks/:id', 'webhooks/5'],
    ['POST', '/webhooks/5/a-token', 'POST /webhooks/:id/:token', 'webhooks/5/token'],
    ['PATCH', '/webhooks/5/a-token/messages/7', 'PATCH /webhooks/:id/:token/messages/:id', 'webhooks/5/token'],
    [
      'GET',
      '/webhooks/5/a-token/messages/@original',
      'GET /webhooks/:id/:token/messages/@original',
      'webhooks/5/token',
    ],
    ['POST', '/interactions/9/a-token/callback', 'POST /interactions/:id/:token/callback', 'interactions/9/token'],
    [
      'GET',
      '/webhooks/5/a-token/messages/%40original',
      'GET /webhooks/:id/:token/messages/@original',
      'webhooks/5/token',
    ],
    // Resources other than the four kinds of §4.2 are not top-level: one count for all of them.
    ['GET', '/users/1', 'GET /users/:id', ''],
    ['GET', '/users/@me', 'GET /users/@me', ''],
    ['GET', '/invites/abc', 'GET /invites/:code', ''],
    ['GET', `/stage-instances/${CHANNEL}`, 'GET /stage-instances/:id', ''],
  ])('%s %s: route %s, resource %j', (method, path, route, resource) => {
    expect(v10(method, path)).toMatchObject({ route, resource, bucketKey: `${route} ${resource || '-'}` });
  });

  it('§4.2: spending a hash on channel 1234 leaves it free on channel 9876: two resources, one route', () => {
    const [first, second] = ['1234', '9876'].map((channel) => v10('POST', `/channels/${channel}/messages`));
    expect(first!.route).toBe(second!.route);
    expect([first!.resource, second!.resource]).toEqual(['channels/1234', 'channels/9876']);
  });

  it('V4: ids, reaction emoji and tokens are normalised; a token never appears', () => {
    const reactions = [
      `/channels/${CHANNEL}/messages/1/reactions/%F0%9F%91%8D/@me`,
      `/channels/${CHANNEL}/messages/2/reactions/custom:123/@me`,
    ].map((path) => v10('PUT', path));
    expect(new Set(reactions.map((route) => route.bucketKey))).toEqual(
      new Set([`PUT /channels/:id/messages/:id/reactions/:reaction/@me channels/${CHANNEL}`]),
    );
    const webhook = v10('POST', '/webhooks/5/secret-token-value');
    expect(JSON.stringify(webhook)).not.toContain('secret-token-value');
  });

  it('V4: a route depends on the method as well as the path', () => {
    expect(v10('PUT', `/channels/${CHANNEL}/pins/1`).route).toBe('PUT /channels/:id/pins/:id');
    expect(v10('DELETE', `/channels/${CHANNEL}/pins/1`).route).toBe('DELETE /channels/:id/pins/:id');
  });

  it('ids are unsigned 64-bit decimals, read as numbers (leading zeros name the same resource)', () => {
    expect(v10('GET', `/channels/000${CHANNEL}`).resource).toBe(`channels/${CHANNEL}`);
    expect(v10('GET', '/channels/18446744073709551616').resource).toBe('');
  });
});

describe('v10: message deletes by age (V20, §6)', () => {
  const deleteAged = (ageMs: number) => v10('DELETE', `/channels/${CHANNEL}/messages/${idMadeAt(NOW - ageMs)}`).route;

  it.each([
    [0, '#new'],
    [9_999, '#new'],
    [10_000, ''],
    [14 * 24 * 60 * 60 * 1000, ''],
    [14 * 24 * 60 * 60 * 1000 + 1, '#old'],
  ])('a message %i ms old: DELETE /channels/:id/messages/:id%s', (age, suffix) => {
    expect(deleteAged(age)).toBe(`DELETE /channels/:id/messages/:id${suffix}`);
  });

  it('only deletes of a channel message: an edit, or a webhook message delete, has no age class', () => {
    const young = idMadeAt(NOW - 1000);
    expect(v10('PATCH', `/channels/${CHANNEL}/messages/${young}`).route).toBe('PATCH /channels/:id/messages/:id');
    expect(v10('DELETE', `/webhooks/5/t/messages/${young}`).route).toBe('DELETE /webhooks/:id/:token/messages/:id');
  });
});

describe('v10: exempt from the global limit (§5, V13)', () => {
  it.each([
    ['POST', '/interactions/9/a-token/callback', true],
    ['POST', '/webhooks/5/a-token', true],
    ['PATCH', '/webhooks/5/a-token/messages/7', true],
    ['DELETE', '/webhooks/5/a-token/messages/@original', true],
    ['GET', '/webhooks/5', false],
    ['POST', `/channels/${CHANNEL}/messages`, false],
    ['POST', `/channels/${CHANNEL}/webhooks`, false],
    ['GET', '/gateway/bot', false],
  ])('%s %s: exempt %s', (method, path, exempt) => {
    expect(v10(method, path).exempt).toBe(exempt);
  });
});

describe('v6: bucket keys (docs/spec/rate-limit-spec.md "Route classification", routes-v6.md)', () => {
  it.each([
    // Rule 1: the channel or guild id is part of the key.
    ['POST', `/channels/${CHANNEL}/messages`, `ChannelsIdMessages:${CHANNEL}`],
    ['GET', `/guilds/${GUILD}/roles`, `GuildsIdRoles:${GUILD}`],
    // Rule 2: other ids do not split a bucket.
    ['PUT', `/channels/${CHANNEL}/pins/1`, `ChannelsIdPinsMessageId:${CHANNEL}`],
    ['PUT', `/channels/${CHANNEL}/pins/2`, `ChannelsIdPinsMessageId:${CHANNEL}`],
    // Rule 3: keys without a channel or guild id have one bucket each.
    ['GET', '/users/1', 'UsersId'],
    ['GET', '/users/2', 'UsersId'],
    ['GET', '/gateway/bot', 'GatewayBot'],
    ['DELETE', `/users/@me/guilds/${GUILD}`, 'UsersMeGuildsId'],
    // Rule 4: the message-by-id key holds the method.
    ['DELETE', `/channels/${CHANNEL}/messages/1`, `ChannelsIdMessagesId:DELETE:${CHANNEL}`],
    ['GET', `/channels/${CHANNEL}/messages/1`, `ChannelsIdMessagesId:GET:${CHANNEL}`],
    // Rule 5 and routes-v6.md: outside the spec's keys, Route None.
    ['PUT', `/channels/${CHANNEL}/recipients/1`, 'None'],
    ['GET', '/oauth2/applications/@me', 'None'],
    ['GET', '/nowhere', 'None'],
    ['GET', '/channels/not-an-id', 'None'],
  ])('%s %s → %s', (method, path, key) => {
    expect(v6BucketKeyOf(method, path)).toBe(key);
  });

  it('a word beats a parameter: /users/@me is UsersMe, not UsersId', () => {
    expect(v6BucketKeyOf('GET', '/users/@me')).toBe('UsersMe');
    expect(v6BucketKeyOf('GET', '/users/@me/channels')).toBe('UsersMeChannels');
  });

  it("routes-v6.md: GuildsIdChannels's two shapes share a bucket per guild", () => {
    expect(v6BucketKeyOf('GET', `/guilds/${GUILD}/channels`)).toBe(`GuildsIdChannels:${GUILD}`);
    expect(v6BucketKeyOf('PATCH', `/guilds/${GUILD}/channels/${CHANNEL}`)).toBe(`GuildsIdChannels:${GUILD}`);
  });

  it('routes-v6.md: one reaction key covers its four paths, bulk_delete is bulk-delete', () => {
    const message = `/channels/${CHANNEL}/messages/1`;
    for (const path of ['/reactions/%F0%9F%91%8D/@me', '/reactions/%F0%9F%91%8D/2', '/reactions/%F0%9F%91%8D'])
      expect(v6BucketKeyOf('PUT', message + path)).toBe(`ChannelsIdMessagesIdReactionsUserIdType:${CHANNEL}`);
    expect(v6BucketKeyOf('POST', `/channels/${CHANNEL}/messages/bulk_delete`)).toBe(
      `ChannelsIdMessagesBulkDelete:${CHANNEL}`,
    );
  });

  it('routes-v6.md: webhooks with a token are WebhooksId, one bucket, the token nowhere in it', () => {
    expect(v6BucketKeyOf('POST', '/webhooks/5/secret-token-value')).toBe('WebhooksId');
    expect(v6BucketKeyOf('GET', '/webhooks/6')).toBe('WebhooksId');
  });
});
