/**
 * The token: refused at creation when a header cannot carry it, never named in that refusal,
 * the one way to authenticate (no Authorization header beside it), and never in a transport
 * error's message or cause chain.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createClient, NetworkError, TollgateArgumentError } from '../../src/index.ts';

const SECRET = 'tok3n-5e1f-9a0b-c3d2';
const TOKEN = `Bot ${SECRET}`;
const BASE = 'http://127.0.0.1:1/api/v10';

/** Everything an error shows, its causes included. */
const shown = (error: unknown) => `${String(error)}\n${inspect(error, { depth: Infinity, showHidden: true })}`;

describe('a token a header cannot carry is refused at creation, unnamed', () => {
  it.each([
    ['NUL', `Bot ${SECRET}\u0000`],
    ['CR', `Bot ${SECRET}\r`],
    ['LF', `Bot ${SECRET}\nX-Injected: 1`],
    ['a character above U+00FF', `Bot ${SECRET}\u2603`],
  ])('%s', (_, token) => {
    let thrown: unknown;
    try {
      createClient({ token });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TollgateArgumentError);
    expect(shown(thrown)).toMatch(/token must be printable Latin-1 text/);
    expect(shown(thrown)).not.toContain(SECRET);
  });

  it('a Latin-1 token (tab, é) is accepted', () => {
    expect(() => createClient({ token: 'Bot caf\u00e9\tx' })).not.toThrow();
  });
});

describe('the token option is the one way to authenticate', () => {
  it('an Authorization header on the client is refused', () => {
    expect(() => createClient({ token: TOKEN, headers: { Authorization: 'Bot other' } })).toThrow(
      /headers must not set Authorization/,
    );
    expect(() => createClient({ headers: { authorization: 'Bot other' } })).toThrow(/must not set Authorization/);
  });

  it('an Authorization header on a call sent with the token is refused, and nothing is sent', async () => {
    const sent: string[] = [];
    const client = createClient({
      baseUrl: BASE,
      token: TOKEN,
      fetch: async (input) => {
        sent.push(String(input instanceof Request ? input.url : input));
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    await expect(client.gateway.get(undefined, { headers: { Authorization: 'Bot other' } })).rejects.toThrow(
      /must not set Authorization on a call sent with the client's token/,
    );
    await expect(client.request('GET', '/gateway', { headers: [['authorization', 'x']] })).rejects.toThrow(
      TollgateArgumentError,
    );
    expect(sent).toEqual([]);
    await client.close();
  });

  it("a call sent without the token (OAuth2's token endpoints) may carry its own credentials", async () => {
    let authorization: string | null = null;
    const client = createClient({
      baseUrl: BASE,
      token: TOKEN,
      fetch: async (input) => {
        authorization = (input as Request).headers.get('authorization');
        return new Response(null, { status: 204 });
      },
    });
    await client.oauth2.token.revoke({ token: 'a' }, { headers: { authorization: 'Basic MTpz' } });
    expect(authorization).toBe('Basic MTpz');
    await client.close();
  });
});

describe('no transport error carries the token', () => {
  it('a network error whose cause names the token is scrubbed, its causes too', async () => {
    const client = createClient({
      baseUrl: BASE,
      token: TOKEN,
      transportRetries: 0,
      fetch: async () => {
        const inner = new Error(`socket wrote "authorization: ${TOKEN}"`, {
          cause: new Error(`still ${SECRET}`),
        });
        throw Object.assign(new TypeError('fetch failed', { cause: inner }), {});
      },
    });
    const error = await client.gateway.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(shown(error)).not.toContain(SECRET);
    expect(shown(error)).toContain('[token]');
    await client.close();
  });

  it('any other error from the transport is scrubbed too', async () => {
    const client = createClient({
      baseUrl: BASE,
      token: TOKEN,
      fetch: async () => {
        throw new RangeError(`invalid header value ${TOKEN}`);
      },
    });
    const error = await client.gateway.get().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RangeError);
    expect(shown(error)).not.toContain(SECRET);
    await client.close();
  });
});
