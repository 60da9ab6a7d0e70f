/**
 * `bucketKeyOf` (src/http/bucket-key.ts): a request's bucket key as its dialect names it, the key
 * `client.buckets.get` takes. Every catalog operation's key is checked in operations.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { bucketKeyOf, routeKeyOf, TollgateArgumentError } from '../../src/index.ts';

/** A message id made at `ms` since the epoch (Discord's epoch is 2015). */
const idAt = (ms: number) => ((BigInt(ms) - 1420070400000n) << 22n).toString();

describe('bucketKeyOf', () => {
  it("speaks v10 by default, a client's dialect, with the method in any case and the version prefix ignored", () => {
    expect(bucketKeyOf('get', '/channels/81384788765712384')).toBe('GET /channels/:id channels/81384788765712384');
    expect(bucketKeyOf('POST', '/api/v10/channels/1/messages')).toBe('POST /channels/:id/messages channels/1');
    expect(bucketKeyOf('GET', '/gateway')).toBe('GET /gateway -');
  });

  it("gives v6's key with api 'v6', as the deprecated routeKeyOf does, and None outside the spec's table", () => {
    for (const [method, path] of [
      ['DELETE', '/channels/1/messages/2'],
      ['GET', '/guilds/41771983423143937/members'],
      ['GET', '/gateway'],
      ['GET', '/oauth2/applications/@me'],
    ] as const) {
      expect(bucketKeyOf(method, path, { api: 'v6' })).toBe(routeKeyOf(method, path));
    }
    expect(bucketKeyOf('GET', '/oauth2/applications/@me', { api: 'v6' })).toBe('None');
  });

  it('counts a v10 message delete by the message age at nowMs', () => {
    const made = Date.UTC(2026, 0, 1);
    const path = `/channels/1/messages/${idAt(made)}`;
    expect(bucketKeyOf('DELETE', path, { nowMs: made + 1000 })).toBe(
      'DELETE /channels/:id/messages/:id#new channels/1',
    );
    expect(bucketKeyOf('DELETE', path, { nowMs: made + 60_000 })).toBe('DELETE /channels/:id/messages/:id channels/1');
    expect(bucketKeyOf('DELETE', path, { nowMs: made + 15 * 86_400_000 })).toBe(
      'DELETE /channels/:id/messages/:id#old channels/1',
    );
  });

  it('refuses what is not a request, with a clear error', () => {
    const refused = (call: () => unknown, message: RegExp) => {
      expect(call).toThrow(TollgateArgumentError);
      expect(call).toThrow(message);
    };
    refused(() => bucketKeyOf(1 as never, '/x'), /^bucketKeyOf: method must be a method name such as "GET"/);
    refused(() => bucketKeyOf('GE T', '/x'), /^bucketKeyOf: method must be a method name/);
    refused(() => bucketKeyOf('GET', undefined as never), /^bucketKeyOf: path must be a string/);
    refused(
      () => bucketKeyOf('GET', '/x', { api: 'v9' as never }),
      /^bucketKeyOf: api must be 'v10' or 'v6', got "v9"/,
    );
    refused(() => bucketKeyOf('GET', '/x', { api: 'toString' as never }), /api must be/);
    refused(() => bucketKeyOf('GET', '/x', { nowMs: Number.NaN }), /^bucketKeyOf: nowMs must be a time in ms/);
  });
});
