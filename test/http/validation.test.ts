/**
 * Every public function checks its arguments and says what is wrong, before anything is sent or
 * started. One row per entry point and mistake; the message must name the argument.
 */
import { describe, expect, it } from 'vitest';
import { createClient, createRelay, MemoryStore, routeKeyOf } from '../../src/index.ts';
import { makeRequest } from '../../src/discordjs/index.ts';
import { RedisStore } from '../../src/redis/index.ts';
import { LimitEnforcer, ReferenceService } from '../../src/testing/index.ts';
import { undiciFetch } from '../../src/undici/index.ts';

const never = (() => {
  throw new Error('nothing may be sent');
}) as unknown as typeof fetch;
const client = createClient({ baseUrl: 'http://127.0.0.1:9/api', token: 'Bot t', fetch: never });
const bad = <T>(value: unknown) => value as T;

describe('constructors and factories throw at once', () => {
  it.each([
    ['createClient: options not an object', () => createClient(bad(42)), /createClient/],
    ['createClient: unknown option', () => createClient(bad({ tokne: 'x' })), /tokne/],
    [
      'createClient: baseUrl not http(s)',
      () => createClient({ baseUrl: 'ftp://x' }),
      /baseUrl must be an absolute http\(s\) URL/,
    ],
    ['createClient: empty token', () => createClient({ token: '' }), /token must not be empty/],
    ['createClient: fetch not a function', () => createClient({ fetch: bad(1) }), /fetch must be a function/],
    ['createClient: store not a store', () => createClient({ store: bad({}) }), /store must be a Store/],
    [
      'createClient: clock without setTimeout',
      () => createClient({ clock: bad({ now: Date.now }) }),
      /clock must have now\(\) and setTimeout\(\)/,
    ],
    ['createClient: negative maxWait', () => createClient({ maxWait: -1 }), /maxWait must not be negative/],
    [
      'createClient: fractional retries',
      () => createClient({ transportRetries: 1.5 }),
      /transportRetries must be a whole number/,
    ],
    ['createClient: timeout of 0', () => createClient({ timeout: 0 }), /timeout/],
    ['createClient: header value not a string', () => createClient({ headers: bad({ 'x-a': 1 }) }), /headers/],
    ['createClient: onWait not a function', () => createClient({ onWait: bad('log') }), /onWait must be a function/],
    ['createClient: unknown api', () => createClient({ api: bad('v9') }), /api must be 'v10' or 'v6'/],
    [
      'createClient: api and baseUrl disagree',
      () => createClient({ api: 'v10', baseUrl: 'http://127.0.0.1:9/api/v6' }),
      /api is 'v10' but baseUrl names v6/,
    ],
    ['createClient: globalLimit of 0', () => createClient({ globalLimit: 0 }), /globalLimit must be at least 1/],
    [
      'createClient: botGlobalLimits not an object',
      () => createClient({ botGlobalLimits: bad([['80351110224678912', 500]]) }),
      /botGlobalLimits must be an object of bot ids to limits/,
    ],
    [
      'createClient: botGlobalLimits a Map (whose entries an object check would not see)',
      () => createClient({ botGlobalLimits: bad(new Map([['80351110224678912', 500]])) }),
      /botGlobalLimits must be an object of bot ids to limits/,
    ],
    [
      'createClient: botGlobalLimits names no bot',
      () => createClient({ botGlobalLimits: { '@me': 500 } }),
      /botGlobalLimits names "@me", which is not a bot id/,
    ],
    [
      "createClient: a bot's global limit not a whole number",
      () => createClient({ botGlobalLimits: { '80351110224678912': 2.5 } }),
      /botGlobalLimits\["80351110224678912"\] must be a whole number of requests per second from 1 to 100000/,
    ],
    [
      'createRelay: botGlobalLimits names no bot',
      () => createRelay({ botGlobalLimits: { '1234': 500 } }),
      /^createRelay: botGlobalLimits names "1234", which is not a bot id/,
    ],
    [
      "createRelay: a bot's global limit over the range",
      () => createRelay({ botGlobalLimits: { '80351110224678912': 1e6 } }),
      /botGlobalLimits\["80351110224678912"\] must be at most 100000/,
    ],
    [
      "makeRequest: a bot's global limit of 0",
      () => makeRequest({ botGlobalLimits: { '80351110224678912': 0 } }),
      /^createRelay: .*botGlobalLimits\["80351110224678912"\] must be at least 1/,
    ],
    ['createClient: negative resetMargin', () => createClient({ resetMargin: -5 }), /resetMargin must not be negative/],
    [
      'createClient: invalidRequestLimit above the ban',
      () => createClient({ invalidRequestLimit: 20_000 }),
      /invalidRequestLimit above 10000/,
    ],
    [
      'createClient: onInvalidRequests not a function',
      () => createClient({ onInvalidRequests: bad(1) }),
      /onInvalidRequests must be a function/,
    ],
    ['RedisStore: unknown time', () => new RedisStore({ time: bad('ntp') }), /time must be 'redis' or 'client'/],
    ['ReferenceService: unknown api', () => new ReferenceService({ api: bad('v7') }), /api must be 'v6' or 'v10'/],
    ['routeKeyOf: method not a string', () => routeKeyOf(bad(1), '/gateway'), /routeKeyOf: method must be a string/],
    ['routeKeyOf: path not a string', () => routeKeyOf('GET', bad(null)), /routeKeyOf: path must be a string/],
    ['RedisStore: bad prefix', () => new RedisStore({ prefix: 'has space' }), /prefix must be 1–64 characters/],
    ['RedisStore: bad ipGroup', () => new RedisStore({ ipGroup: 'host a' }), /ipGroup must be 1–64 characters/],
    ['RedisStore: ipGroup not a string', () => new RedisStore({ ipGroup: bad(7) }), /ipGroup must be 1–64 characters/],
    [
      'RedisStore: short lease',
      () => new RedisStore({ leaseMs: 5 }),
      /leaseMs must be a whole number of ms, at least 100/,
    ],
    [
      'RedisStore: bad onUnavailable',
      () => new RedisStore({ onUnavailable: bad('retry') }),
      /onUnavailable must be 'fail' or 'local'/,
    ],
    [
      'RedisStore: url not redis://',
      () => new RedisStore({ url: 'http://127.0.0.1:6379' }),
      /url must be a redis:\/\/ or rediss:\/\/ URL/,
    ],
    [
      'RedisStore: client not ioredis',
      () => new RedisStore({ client: bad({}) }),
      /client must be an ioredis connection/,
    ],
    ['undiciFetch: options not an object', () => undiciFetch(bad(null)), /undiciFetch: options must be an object/],
    [
      'ReferenceService: port out of range',
      () => new ReferenceService({ port: 70_000 }),
      /port must be a whole number from 0 to 65535/,
    ],
    [
      'ReferenceService: basePath without slash',
      () => new ReferenceService({ basePath: 'api' }),
      /basePath must be empty or start with "\/"/,
    ],
    [
      'ReferenceService: limit of 0',
      () => new ReferenceService({ defaultLimit: { limit: 0, windowMs: 1000 } }),
      /needs a whole limit ≥ 1/,
    ],
    [
      'ReferenceService: unknown dialect',
      () => new ReferenceService({ dialect: bad('ietf') }),
      /dialect must be 'spec' or 'discord'/,
    ],
    [
      'LimitEnforcer: window of 0',
      () => new LimitEnforcer({ global: { limit: 5, windowMs: 0 } }, { now: Date.now, setTimeout: () => () => {} }),
      /windowMs ≥ 1/,
    ],
  ])('%s', (_name, call, message) => {
    expect(call).toThrow(message);
  });

  it('ReferenceService.inject checks the rule', () => {
    const service = new ReferenceService();
    expect(() => service.inject(bad({ fault: { kind: 'explode' } }))).toThrow(/unknown fault kind "explode"/);
    expect(() => service.inject({ fault: { kind: 'drop' }, times: 0 })).toThrow(/times must be a whole number ≥ 1/);
    expect(() => service.inject({ fault: { kind: 'shared', retryAfterMs: -1 } })).toThrow(/retryAfterMs must be/);
    expect(() => service.inject({ fault: { kind: 'ban', retryAfterSeconds: 1.5 } })).toThrow(/retryAfterSeconds/);
    expect(() => service.inject({ fault: { kind: 'slow', delayMs: -5 } })).toThrow(
      /delayMs must be a number of ms ≥ 0/,
    );
    expect(() => service.inject({ fault: { kind: 'status', status: 99 } })).toThrow(
      /status must be a whole number from 200 to 599/,
    );
    expect(() => service.inject(bad({ fault: { kind: 'status', status: 404, body: 'Unknown' } }))).toThrow(
      /body must be an object \(sent as JSON\)/,
    );
    expect(() => service.inject(bad({}))).toThrow(/needs \{ fault/);
  });

  it('MemoryStore takes no arguments and needs none', () => {
    expect(new MemoryStore().bucketCount).toBe(0);
  });
});

describe('client calls reject before sending', () => {
  it.each([
    [
      'typed: id not a decimal',
      () => client.channels.get(bad('12a')),
      /channelId must be an unsigned 64-bit decimal id/,
    ],
    [
      'typed: id as a number',
      () => client.channels.get(bad(12)),
      /channelId must be a decimal string or bigint id, got the number 12/,
    ],
    ['typed: id past u64', () => client.channels.get(2n ** 64n), /channelId must be an unsigned 64-bit id/],
    ['typed: missing body', () => client.channels.messages.create('1', bad(undefined)), /needs a body/],
    [
      'typed: body not an object',
      () => client.channels.messages.create('1', bad('hi')),
      /body must be an object or an array/,
    ],
    ['typed: unknown option', () => client.gateway.get(undefined, bad({ singal: 1 })), /unknown option "singal"/],
    [
      'typed: signal not an AbortSignal',
      () => client.gateway.get(undefined, bad({ signal: {} })),
      /signal must be an AbortSignal/,
    ],
    [
      'typed: negative maxWait',
      () => client.gateway.get(undefined, { maxWait: -1 }),
      /gateway\.get: maxWait must not be negative/,
    ],
    ['typed: slash in an invite code', () => client.invites.get('a/b'), /must not contain a slash/],
    ['request: method', () => client.request('G E T', '/gateway'), /request: method must be an HTTP method name/],
    [
      'request: absolute URL',
      () => client.request('GET', 'https://elsewhere.invalid/'),
      /request: path must be relative to the base URL/,
    ],
    [
      'request: json and body',
      () => client.request('POST', '/gateway', { json: {}, body: 'x' }),
      /either json or body, not both/,
    ],
    [
      'request: unknown option',
      () => client.request('GET', '/gateway', bad({ jsn: {} })),
      /request: unknown option "jsn"/,
    ],
    [
      'request: query not an object',
      () => client.request('GET', '/gateway', { query: bad('a=1') }),
      /query must be an object/,
    ],
    ['buckets.get: not a string', () => client.buckets.get(bad(1)), /buckets.get: bucketKey must be a bucket key/],
  ])('%s', async (_name, call, message) => {
    await expect(call()).rejects.toThrow(message);
  });
});
