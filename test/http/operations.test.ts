/**
 * One smoke test per catalog operation and dialect, against msw handlers derived from the same
 * catalog: method, URL, parameter encoding, query, Authorization, body encoding, and the bucket
 * the limiter filed the response under (v6: the catalog's key, which is where the route key on
 * ky's context ends up; v10: the route + resource key of the call).
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog as catalogSource } from '../../catalog/routes.ts';
import { parseCatalog } from '../../catalog/schema.ts';
import { bucketKeyOf, createClient, type TollgateClient } from '../../src/index.ts';
import { classifyV10 } from '../../src/dialects/v10/route.ts';

const ORIGIN = 'http://smoke.test';
const BASE = `${ORIGIN}/api/v6`;
const TOKEN = 'Bot smoke-token';
const SAMPLE: Record<string, { readonly value: string; readonly encoded: string }> = {
  channel_id: { value: '81384788765712384', encoded: '81384788765712384' },
  guild_id: { value: '41771983423143937', encoded: '41771983423143937' },
  code: { value: 'a b?c', encoded: 'a%20b%3Fc' },
  emoji: { value: '🔥', encoded: '%F0%9F%94%A5' },
  webhook_token: { value: 'tok:en', encoded: 'tok%3Aen' },
};
const sample = (name: string) => SAMPLE[name] ?? { value: '334385199974967042', encoded: '334385199974967042' };

// Parsed, as the generator reads it: an operation with `sameAs` sends what its twin does.
const catalog = parseCatalog(catalogSource);
const cases = catalog.routes.flatMap((route) =>
  route.operations.map((operation) => {
    const path = operation.path ?? route.path;
    const parameters = [...path.matchAll(/\{([a-z0-9_]+)\}/g)].map((match) => match[1]!);
    const expectedPath = path.replace(/\{([a-z0-9_]+)\}/g, (_, name: string) => sample(name).encoded);
    const majorId = route.major === null ? undefined : sample(route.major).value;
    // v6: a route beyond the spec's keys is None, and None makes no bucket.
    const bucketKey = route.v10Only
      ? undefined
      : majorId === undefined
        ? route.key
        : route.bucketHoldsMethod
          ? `${route.key}:${operation.method}:${majorId}`
          : `${route.key}:${majorId}`;
    return { route, operation, path, parameters, expectedPath, bucketKey };
  }),
);

// Handlers for paths with fewer parameters first, so literal segments (`@me`, `search`) win.
const handlers = [...cases]
  .sort((a, b) => a.parameters.length - b.parameters.length)
  .map(({ operation, path }) =>
    http[operation.method.toLowerCase() as 'get'](
      `${ORIGIN}/api/:version${path.replace(/\{([a-z0-9_]+)\}/g, ':$1')}`,
      async ({ request }) => {
        const url = new URL(request.url);
        return HttpResponse.json(
          {
            operation: operation.name,
            pathname: url.pathname,
            search: url.search,
            authorization: request.headers.get('authorization'),
            body: request.body ? await request.text() : null,
          },
          // Both dialects' headers: v6 reads Reset, v10 Reset-After and Bucket.
          {
            headers: {
              'x-ratelimit-limit': '10',
              'x-ratelimit-remaining': '9',
              'x-ratelimit-reset': '4102444800',
              'x-ratelimit-reset-after': '60',
              'x-ratelimit-bucket': `hash-${operation.name}`,
            },
          },
        );
      },
    ),
  );

const server = setupServer(...handlers);
let client: TollgateClient;
let v10Client: TollgateClient;

beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' });
  client = createClient({ baseUrl: BASE, token: TOKEN });
  v10Client = createClient({ baseUrl: `${ORIGIN}/api/v10`, token: TOKEN });
});
afterAll(async () => {
  await Promise.all([client.close(), v10Client.close()]);
  server.close();
});

/** `{ content: 'hello' }` as each encoding sends it. */
const SENT_BODY = {
  json: /^\{"content":"hello"\}$/,
  'json+files': /^\{"content":"hello"\}$/,
  'form-data': /^--.*\r\nContent-Disposition: form-data; name="content"\r\n\r\nhello\r\n--/s,
  urlencoded: /^content=hello$/,
};
/** v10's message create is made safe to resend: it gains a nonce the service enforces. */
const SENT_WITH_NONCE = /^\{"content":"hello","nonce":"\d{1,25}","enforce_nonce":true\}$/;

function methodOf(name: string, of: TollgateClient = client): (...args: unknown[]) => unknown {
  const parts = name.split('.');
  let target: unknown = of;
  for (const part of parts.slice(0, -1)) target = (target as Record<string, unknown>)[part];
  const method = (target as Record<string, unknown>)[parts.at(-1)!];
  if (typeof method !== 'function') throw new Error(`client.${name} is not a method`);
  return (...args) => (method as (...a: unknown[]) => unknown).apply(target, args);
}

describe('every catalog operation', () => {
  it('is covered', () => {
    expect(cases).toHaveLength(catalog.routes.reduce((sum, route) => sum + route.operations.length, 0));
    expect(cases.length).toBeGreaterThanOrEqual(106);
  });

  it.each(
    cases.flatMap((c) =>
      (['v6', 'v10'] as const).map(
        (api) => [`${api}: ${c.operation.name} → ${c.operation.method} ${c.path}`, api, c] as const,
      ),
    ),
  )('%s', async (_, api, c) => {
    const { operation } = c;
    const target = api === 'v6' ? client : v10Client;
    const args: unknown[] = c.parameters.map((name) => sample(name).value);
    const query = operation.query ? { [operation.query[0]!]: 'q v' } : undefined;
    if (operation.body) {
      args.push({ content: 'hello' });
      args.push(query ? { query } : undefined);
    } else if (query) {
      args.push(query);
    }
    const search = query ? `?${operation.query![0]}=q+v` : '';
    if (operation.link) {
      // A link sends nothing: its URL is the answer.
      expect(methodOf(operation.name, target)(...args)).toBe(`${ORIGIN}/api/${api}${c.expectedPath}${search}`);
      return;
    }
    const answer = await methodOf(operation.name, target)(...args);
    const result = (
      operation.binaryResult ? JSON.parse(new TextDecoder().decode(answer as ArrayBuffer)) : answer
    ) as Record<string, unknown>;
    // A twin goes on the wire as the operation it is the twin of, so that one's handler answers.
    expect(result.operation).toBe(operation.sameAs ?? operation.name);
    expect(result.pathname).toBe(`/api/${api}${c.expectedPath}`);
    expect(result.search).toBe(search);
    const exempt = classifyV10(operation.method, c.expectedPath, Date.now()).exempt;
    expect(result.authorization).toBe(operation.unauthenticated || (api === 'v10' && exempt) ? null : TOKEN);
    if (operation.body) {
      const nonceSafe = api === 'v10' && operation.name === 'channels.messages.create';
      expect(result.body).toMatch(nonceSafe ? SENT_WITH_NONCE : SENT_BODY[operation.encoding ?? 'json']);
    }
    if (api === 'v10') {
      const { bucketKey } = classifyV10(operation.method, c.expectedPath, Date.now());
      expect(await v10Client.buckets.get(bucketKey)).toMatchObject({ limit: 10 });
      expect(bucketKeyOf(operation.method, c.expectedPath)).toBe(bucketKey);
    } else if (c.bucketKey) {
      expect(await client.buckets.get(c.bucketKey)).toMatchObject({ limit: 10 });
    } else {
      expect(await client.buckets.get('None')).toBeUndefined();
    }
    if (api === 'v6') expect(bucketKeyOf(operation.method, c.expectedPath, { api })).toBe(c.bucketKey ?? 'None');
  });
});

describe('argument checks happen before any request', () => {
  it('rejects a bad id, a missing body, a stray body and a non-object body', async () => {
    await expect(methodOf('channels.get')(12345)).rejects.toThrow(
      /channelId must be a decimal string or bigint id, got the number/,
    );
    await expect(methodOf('channels.edit')('1')).rejects.toThrow(/channels.edit needs a body/);
    await expect(methodOf('channels.get')('1', undefined, '2')).rejects.toThrow(
      /channels.get: options must be an object/,
    );
    await expect(methodOf('channels.get')('1', undefined, { limit: 5 })).rejects.toThrow(
      /channels.get: unknown option "limit"/,
    );
    await expect(methodOf('channels.edit')('1', 'text')).rejects.toThrow(/body must be an object or an array/);
    await expect(methodOf('channels.messages.list')('1', { limit: {} })).rejects.toThrow(/query parameter "limit"/);
  });

  it('an operation that takes no parameters yet takes undefined or {} there, and names options given in their place', async () => {
    await expect(client.channels.get('1')).resolves.toMatchObject({ operation: 'channels.get', search: '' });
    await expect(client.channels.get('1', {}, {})).resolves.toMatchObject({ search: '' });
    await expect(methodOf('channels.get')('1', { signal: new AbortController().signal })).rejects.toThrow(
      /channels.get takes no parameters \(pass undefined\); options come after the parameters/,
    );
    await expect(methodOf('channels.get')('1', { limit: 5 })).rejects.toThrow(/channels.get takes no parameters/);
    await expect(methodOf('channels.get')('1', 'x')).rejects.toThrow(/channels.get takes no parameters/);
  });

  it('accepts FormData only where the catalog says multipart', async () => {
    const form = new FormData();
    form.set('payload_json', '{"content":"file"}');
    const result = (await client.channels.messages.create('1', form)) as { body: string };
    expect(result.body).toContain('payload_json');
    await expect(methodOf('channels.edit')('1', form)).rejects.toThrow(/takes a JSON body, not FormData/);
  });

  it('request() refuses absolute URLs so the token never leaves the base origin', async () => {
    await expect(client.request('GET', 'https://elsewhere.test/steal')).rejects.toThrow(/relative to the base URL/);
    await expect(client.request('GET', '//elsewhere.test/steal')).rejects.toThrow(/relative to the base URL/);
    await expect(client.request('GET /', '/gateway')).rejects.toThrow(/HTTP method/);
  });

  it('createClient validates its options with messages that name the option', () => {
    expect(() => createClient({ baseUrl: 'ftp://x' })).toThrow(/baseUrl must be an absolute http\(s\) URL/);
    expect(() => createClient({ maxWait: -1 })).toThrow(/maxWait must not be negative/);
    expect(() => createClient({ transportRetries: 1.5 })).toThrow(/transportRetries must be a whole number/);
    expect(() => createClient({ token: '' })).toThrow(/token must not be empty/);
    expect(() => createClient({ retries: 3 } as never)).toThrow(/retries/);
  });
});
