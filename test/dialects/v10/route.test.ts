/** v10 keys (docs/spec/v10-rate-limits.md §4, V4, V13, V19, V20): route templates and top-level resources. */
import { describe, expect, it } from 'vitest';
import {
  classifyV10,
  ID_EPOCH_MS,
  idCreatedAt,
  isExemptRoute,
  messageAgeClass,
  splitBucketKey,
} from '../../../src/dialects/v10/route.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** An id made `ageMs` before NOW. */
const idAged = (ageMs: number) => String(BigInt(NOW - ageMs - ID_EPOCH_MS) << 22n);

describe('V4: method + route template, and the top-level resource', () => {
  it.each([
    ['GET', '/channels/81384788765712384', 'GET /channels/:id', 'channels/81384788765712384'],
    ['POST', '/channels/1/messages', 'POST /channels/:id/messages', 'channels/1'],
    ['PATCH', '/channels/1/messages/2', 'PATCH /channels/:id/messages/:id', 'channels/1'],
    ['GET', '/guilds/41771983423143937/members/3', 'GET /guilds/:id/members/:id', 'guilds/41771983423143937'],
    ['GET', '/webhooks/5', 'GET /webhooks/:id', 'webhooks/5'],
    ['POST', '/webhooks/5/secret-token', 'POST /webhooks/:id/:token', 'webhooks/5/token'],
    [
      'PATCH',
      '/webhooks/5/secret-token/messages/@original',
      'PATCH /webhooks/:id/:token/messages/@original',
      'webhooks/5/token',
    ],
    [
      'POST',
      '/interactions/7/interaction-token/callback',
      'POST /interactions/:id/:token/callback',
      'interactions/7/token',
    ],
    ['GET', '/users/@me', 'GET /users/@me', ''],
    ['GET', '/users/80351110224678912', 'GET /users/:id', ''],
    ['GET', '/gateway/bot', 'GET /gateway/bot', ''],
    ['GET', '/invites/abc?with_counts=true', 'GET /invites/:code', ''],
    [
      'PUT',
      '/channels/1/messages/2/reactions/%F0%9F%91%8D/@me',
      'PUT /channels/:id/messages/:id/reactions/:reaction/@me',
      'channels/1',
    ],
    [
      'DELETE',
      '/channels/1/messages/2/reactions/name:123/456',
      'DELETE /channels/:id/messages/:id/reactions/:reaction/:id',
      'channels/1',
    ],
    ['GET', '/applications/1/activity-instances/i-1234-abc', 'GET /applications/:id/activity-instances/:instance', ''],
    [
      'GET',
      '/applications/1/application-identities/steam/76561197960287930',
      'GET /applications/:id/application-identities/:external/:id',
      '',
    ],
    [
      'POST',
      '/users/2/application-identities/1/xbox/gamertag-9/delete',
      'POST /users/:id/application-identities/:id/:external/:external/delete',
      '',
    ],
    [
      'PATCH',
      '/applications/1/users/2/identities/acct-77/profile',
      'PATCH /applications/:id/users/:id/identities/:external/profile',
      '',
    ],
    ['GET', '/guilds/1/widget.png?style=banner2', 'GET /guilds/:id/widget.png', 'guilds/1'],
    ['POST', '/oauth2/token', 'POST /oauth2/token', ''],
    ['GET', '/api/v10/channels/1', 'GET /channels/:id', 'channels/1'],
    ['get', '/channels/0001', 'GET /channels/:id', 'channels/1'],
  ])('%s %s → %s on %j', (method, path, route, resource) => {
    const classified = classifyV10(method, path, NOW);
    expect(classified.route).toBe(route);
    expect(classified.resource).toBe(resource);
    expect(classified.bucketKey).toBe(`${route} ${resource || '-'}`);
    expect(splitBucketKey(classified.bucketKey)).toEqual({ route, resource });
  });

  it('V4: no token appears in a key', () => {
    for (const path of ['/webhooks/5/s3cr3t', '/webhooks/5/s3cr3t/messages/9', '/interactions/7/s3cr3t/callback']) {
      expect(classifyV10('POST', path, NOW).bucketKey).not.toContain('s3cr3t');
    }
  });

  it('V4: `%40me` is `@me` (as @discordjs/core sends it): one route and one key', () => {
    expect(classifyV10('PATCH', '/guilds/41771983423143937/members/%40me', NOW)).toEqual(
      classifyV10('PATCH', '/guilds/41771983423143937/members/@me', NOW),
    );
    expect(classifyV10('GET', '/users/%40me', NOW).route).toBe('GET /users/@me');
  });

  it('a space in a path cannot forge a resource', () => {
    const classified = classifyV10('GET', '/users/a b', NOW);
    expect(splitBucketKey(classified.bucketKey)).toEqual({ route: 'GET /users/a%20b', resource: '' });
  });
});

describe('V13: exempt routes', () => {
  it.each([
    ['POST', '/interactions/7/t/callback', true],
    ['POST', '/webhooks/5/t', true],
    ['GET', '/webhooks/5/t/messages/@original', true],
    ['GET', '/webhooks/5', false],
    ['GET', '/interactions/7/t/callback', false],
    ['POST', '/channels/1/messages', false],
  ])('%s %s exempt: %s', (method, path, exempt) => {
    const classified = classifyV10(method, path, NOW);
    expect(classified.exempt).toBe(exempt);
    expect(isExemptRoute(classified.route)).toBe(exempt);
  });

  it('V19: webhooks addressed with their token are marked', () => {
    expect(classifyV10('POST', '/webhooks/5/t', NOW).webhookWithToken).toBe(true);
    expect(classifyV10('GET', '/webhooks/5', NOW).webhookWithToken).toBe(false);
  });
});

describe('V20: message deletes by age', () => {
  it('an id carries its creation time: (id >> 22) + 1420070400000', () => {
    expect(idCreatedAt('175928847299117063')).toBe(1462015105796);
    expect(idCreatedAt(idAged(5000))).toBe(NOW - 5000);
  });

  it.each([
    [1000, '#new'],
    [9_999, '#new'],
    [10_000, ''],
    [14 * 24 * 3600 * 1000, ''],
    [14 * 24 * 3600 * 1000 + 1, '#old'],
  ])('a message %i ms old: %j', (ageMs, ageClass) => {
    expect(messageAgeClass(idAged(ageMs), NOW)).toBe(ageClass);
    expect(classifyV10('DELETE', `/channels/1/messages/${idAged(ageMs)}`, NOW).route).toBe(
      `DELETE /channels/:id/messages/:id${ageClass}`,
    );
  });

  it('only deletes are split by age', () => {
    expect(classifyV10('GET', `/channels/1/messages/${idAged(1000)}`, NOW).route).toBe(
      'GET /channels/:id/messages/:id',
    );
  });
});
