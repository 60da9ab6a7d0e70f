/** `.withResponse()`: a typed call's result with the Response it came in; a plain await is unchanged. */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError } from '../../src/index.ts';

const BASE = 'http://with-response.test/api/v10';
const server = setupServer(
  http.get(`${BASE}/channels/:id`, ({ params }) =>
    params.id === '404'
      ? HttpResponse.json({ code: 10003, message: 'Unknown Channel' }, { status: 404 })
      : HttpResponse.json({ id: params.id, name: 'general' }, { headers: { 'x-trace-id': 'abc' } }),
  ),
  http.delete(`${BASE}/channels/:id/messages/:message`, () => new HttpResponse(null, { status: 204 })),
  http.get(`${BASE}/webhooks/:id/:token/messages/:message`, () =>
    HttpResponse.json({ id: '3' }, { status: 200, headers: { 'x-ratelimit-bucket': 'w' } }),
  ),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const client = createClient({ baseUrl: BASE, token: 'Bot with-response' });

describe('withResponse', () => {
  it('gives the parsed result and the Response, its status and headers', async () => {
    const { data, response } = await client.channels.get('1').withResponse();
    expect(data).toEqual({ id: '1', name: 'general' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-trace-id')).toBe('abc');
    expect(response.url).toBe(`${BASE}/channels/1`);
  });

  it('a plain await is the result alone, as before', async () => {
    await expect(client.channels.get('2')).resolves.toEqual({ id: '2', name: 'general' });
  });

  it('an empty answer: undefined, with its 204', async () => {
    const { data, response } = await client.channels.messages.delete('1', '2').withResponse();
    expect(data).toBeUndefined();
    expect(response.status).toBe(204);
  });

  it('may be asked for after the call has ended, as often as wanted', async () => {
    const call = client.channels.get('5');
    await call;
    const [first, second] = await Promise.all([call.withResponse(), call.withResponse()]);
    expect(first.data).toEqual({ id: '5', name: 'general' });
    expect(second.response.status).toBe(200);
  });

  it('rejects as the call does, with the HttpError that holds the Response', async () => {
    const error: unknown = await client.channels
      .get('404')
      .withResponse()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).response.status).toBe(404);
  });

  it('a path with a secret (a webhook token) hands over the Response without its URL', async () => {
    const { data, response } = await client.webhooks.messages.getWithToken('1', 'secret-token', '3').withResponse();
    expect(data).toEqual({ id: '3' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-bucket')).toBe('w');
    expect(response.url).toBe('');
    expect(JSON.stringify([...response.headers])).not.toContain('secret-token');
  });
});
