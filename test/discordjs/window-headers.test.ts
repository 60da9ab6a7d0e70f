/**
 * What @discordjs/rest is told of a window through tollgate/discordjs: nothing of what is left of
 * it (REST would wait that out on top of tollgate's wait, and miss the window tollgate takes), the
 * limit and the bucket kept for its queues; a 429, Discord's or tollgate's, with all its headers.
 */
import { describe, expect, it } from 'vitest';
import { makeRequest } from '../../src/discordjs/index.ts';

const ROOT = 'http://window.test/api';
const LIMITS = {
  'x-ratelimit-limit': '5',
  'x-ratelimit-remaining': '0',
  'x-ratelimit-reset': '1795000000.250',
  'x-ratelimit-reset-after': '4.750',
  'x-ratelimit-bucket': 'abcd',
  'x-ratelimit-scope': 'user',
};

const bridgeAnswering = (status: number, body: string | null, headers: Record<string, string>) =>
  makeRequest({ apiRoot: ROOT, fetch: async () => new Response(body, { status, headers }) });

describe('the headers REST is handed', () => {
  it('a 2xx answer: no Remaining, Reset or Reset-After; the limit, the bucket, the body and the rest as they came', async () => {
    const bridge = bridgeAnswering(200, '{"id":"1"}', {
      ...LIMITS,
      'content-type': 'application/json',
      'x-trace': 't',
    });
    const response = await bridge(`${ROOT}/v10/channels/1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bot a' },
    });
    expect(response.status).toBe(200);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json',
      'x-trace': 't',
      'x-ratelimit-limit': '5',
      'x-ratelimit-bucket': 'abcd',
      'x-ratelimit-scope': 'user',
    });
    expect(await new Response(response.body as ReadableStream).json()).toEqual({ id: '1' });
    await bridge.close();
  });

  it('a 204 keeps its empty body', async () => {
    const bridge = bridgeAnswering(204, null, LIMITS);
    const response = await bridge(`${ROOT}/v10/channels/1/messages/2`, {
      method: 'DELETE',
      headers: { authorization: 'Bot a' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.has('x-ratelimit-reset-after')).toBe(false);
    expect(response.body).toBeNull();
    await bridge.close();
  });

  it("Discord's 429 keeps every header, so REST's rateLimited and rejectOnRateLimit see it", async () => {
    const headers = { ...LIMITS, 'retry-after': '5', 'content-type': 'application/json' };
    const bridge = bridgeAnswering(
      429,
      '{"message":"You are being rate limited.","retry_after":4.75,"global":false}',
      headers,
    );
    const response = await bridge(`${ROOT}/v10/channels/1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bot a' },
    });
    expect(response.status).toBe(429);
    for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
    await bridge.close();
  });
});

describe('the headers REST is handed, when the service says only part of the window', () => {
  it.each(['x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-reset-after'])(
    'a 2xx answer with %s alone: without it',
    async (name) => {
      const bridge = bridgeAnswering(200, '{}', { [name]: '1', 'x-ratelimit-bucket': 'abcd' });
      const response = await bridge(`${ROOT}/v10/channels/1/messages`, { method: 'GET', headers: {} });
      expect(response.headers.has(name)).toBe(false);
      expect(response.headers.get('x-ratelimit-bucket')).toBe('abcd');
      await bridge.close();
    },
  );
});
