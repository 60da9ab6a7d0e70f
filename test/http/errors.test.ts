/** Every error tollgate throws has one root, `TollgateError`, and a stable `code`. */
import { describe, expect, it } from 'vitest';
import * as tollgate from '../../src/index.ts';
import { StoreDataError, StoreUnavailableError } from '../../src/redis/index.ts';
import { TollgateError, TollgateArgumentError, HttpError, NetworkError } from '../../src/index.ts';

/** A call as errors name it. */
const CALL: tollgate.CallIdentity = {
  method: 'GET',
  route: 'GET ChannelsId',
  routeKey: 'ChannelsId',
  bucketKey: 'ChannelsId:1',
  resource: '',
};

const samples: [string, Error][] = [
  ['RateLimitUtf8Error', new tollgate.RateLimitUtf8Error('x-ratelimit-limit')],
  ['RateLimitI64Error', new tollgate.RateLimitI64Error('x-ratelimit-limit', 'x')],
  ['RateLimitWaitError', new tollgate.RateLimitWaitError('bucket', 10, 1, CALL)],
  ['HttpError', new HttpError(CALL, new Response(null, { status: 404 }), undefined)],
  ['TollgateArgumentError', new TollgateArgumentError('bad')],
  ['ClientClosedError', new tollgate.ClientClosedError()],
  ['RequestTimeoutError', new tollgate.RequestTimeoutError(CALL, 1000)],
  ['CdnBanError', new tollgate.CdnBanError(1000)],
  ['TokenInvalidError', new tollgate.TokenInvalidError()],
  ['WebhookGoneError', new tollgate.WebhookGoneError('webhooks/1/token')],
  ['InvalidRequestGuardError', new tollgate.InvalidRequestGuardError(9000, 9000, 1000)],
  ['NetworkError', new NetworkError(CALL, new Error('x'))],
  ['PaginationError', new tollgate.PaginationError('x')],
  ['StoreUnavailableError', new StoreUnavailableError('x')],
  ['StoreDataError', new StoreDataError('x')],
];

describe('TollgateError', () => {
  it.each(samples)('%s is a TollgateError with a stable code', (_, error) => {
    expect(error).toBeInstanceOf(TollgateError);
    expect(error).toBeInstanceOf(Error);
    expect((error as TollgateError).code).toMatch(/^[A-Z][A-Z0-9_]+$/);
  });

  it('each class has a code of its own', () => {
    const codes = samples.map(([, error]) => (error as TollgateError).code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('TollgateArgumentError stays a TypeError', () => {
    const error = new TollgateArgumentError('bad');
    expect(error).toBeInstanceOf(TypeError);
    expect(error).toBeInstanceOf(TollgateError);
    expect(error.code).toBe('ARGUMENT');
  });

  it("a subclass still answers for its own instances only; foreign errors are not tollgate's", () => {
    const http = samples.find(([name]) => name === 'HttpError')![1];
    expect(http).not.toBeInstanceOf(NetworkError);
    expect(new Error('x')).not.toBeInstanceOf(TollgateError);
    expect(new TypeError('x')).not.toBeInstanceOf(TollgateError);
    expect(null).not.toBeInstanceOf(TollgateError);
  });

  it('every error class the package exports is covered here', () => {
    const exported = Object.entries(tollgate)
      .filter(([name, value]) => typeof value === 'function' && name.endsWith('Error') && name !== 'TollgateError')
      .map(([name]) => name);
    const covered = new Set(samples.map(([name]) => name));
    expect(exported.filter((name) => !covered.has(name))).toEqual([]);
  });
});
