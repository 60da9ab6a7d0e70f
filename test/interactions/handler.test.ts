/**
 * createInteractionHandler on fetch: what it answers to what (docs/interactions.md's table), that
 * user code sees only verified interactions, that a failure of it leaks nothing, and the deferred
 * reply finished through the client (msw plays the service).
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InteractionResponseType, InteractionType, MessageFlags } from 'discord-api-types/v10';
import { createClient, TollgateError } from '../../src/index.ts';
import {
  createInteractionHandler,
  MAX_INTERACTION_BODY_BYTES,
  respond,
  type InteractionHandlerOptions,
  type ReceivedInteraction,
} from '../../src/interactions/index.ts';
import {
  APPLICATION_ID,
  COMMAND,
  INTERACTION_TOKEN,
  newSigner,
  PING,
  signedRequest,
  type Signed,
} from '../support/interactions.ts';

const signer = await newSigner();
const other = await newSigner();

const signed = await signer.sign(COMMAND);
const flipLastDigit = (text: string) => text.slice(0, -1) + (text.endsWith('0') ? '1' : '0');
const { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp } = signed.headers;
const unsigned: [string, Signed][] = [
  ['a tampered body', { ...signed, body: signed.body.replace('hello', 'hellO') }],
  ['a tampered timestamp', { ...signed, headers: { ...signed.headers, 'x-signature-timestamp': `${timestamp}0` } }],
  [
    'a tampered signature',
    { ...signed, headers: { ...signed.headers, 'x-signature-ed25519': flipLastDigit(signature) } },
  ],
  ['no signature header', { ...signed, headers: { 'x-signature-timestamp': timestamp } as Signed['headers'] }],
  ['no timestamp header', { ...signed, headers: { 'x-signature-ed25519': signature } as Signed['headers'] }],
  ['a body signed by another key', await other.sign(COMMAND)],
];

/** A handler on `signer`'s key whose `handle` records what it is given. */
function handlerWith(options: Partial<InteractionHandlerOptions<string>> = {}) {
  const handled: { interaction: ReceivedInteraction; context: string }[] = [];
  const handler = createInteractionHandler<string>({
    publicKey: signer.publicKey,
    handle: (interaction, context) => {
      handled.push({ interaction, context });
      return respond.reply({ content: 'handled' });
    },
    ...options,
  });
  return { handler, handled };
}

const answered = async (response: Response) => ({ status: response.status, body: await response.json() });

describe('answers without calling user code', () => {
  it('a signed PING: PONG', async () => {
    const { handler, handled } = handlerWith();
    const response = await handler.fetch(signedRequest(await signer.sign(PING)), 'context');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await answered(response)).toEqual({ status: 200, body: { type: InteractionResponseType.Pong } });
    expect(handled).toEqual([]);
  });

  it.each(unsigned)('%s: 401', async (_, request) => {
    const { handler, handled } = handlerWith();
    expect(await answered(await handler.fetch(signedRequest(request), 'context'))).toEqual({
      status: 401,
      body: { message: 'Invalid request signature' },
    });
    expect(handled).toEqual([]);
  });

  it("a handler made with another application's key: 401 to a request signed with this one", async () => {
    const { handler, handled } = handlerWith({ publicKey: other.publicKey });
    expect((await handler.fetch(signedRequest(signed), 'context')).status).toBe(401);
    expect(handled).toEqual([]);
  });

  it('a request that is not a POST: 405, saying POST', async () => {
    const { handler, handled } = handlerWith();
    for (const method of ['GET', 'HEAD', 'PUT', 'OPTIONS']) {
      const response = await handler.fetch(new Request('http://interactions.test/', { method }), 'context');
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
    expect(handled).toEqual([]);
  });

  it('a signed body that is not an interaction: 400', async () => {
    const { handler, handled } = handlerWith();
    for (const body of ['not json', '[1]', '{"type":"2"}', 'null', '{"id":"1"}']) {
      const response = await handler.fetch(signedRequest(await signer.sign(body)), 'context');
      expect(response.status, body).toBe(400);
    }
    const notUtf8 = await signer.sign(
      new Uint8Array([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x32, 0xff, 0x7d]),
    );
    expect((await handler.fetch(signedRequest(notUtf8), 'context')).status).toBe(400);
    expect(handled).toEqual([]);
  });

  it(`a body over ${MAX_INTERACTION_BODY_BYTES} bytes, as declared: 413, nothing read`, async () => {
    const { handler } = handlerWith();
    const body = new ReadableStream({
      pull: () => {
        throw new Error('read a body whose declared length was over the bound');
      },
    });
    const request = new Request('http://interactions.test/', {
      method: 'POST',
      headers: { 'content-length': String(MAX_INTERACTION_BODY_BYTES + 1) },
      body,
      duplex: 'half',
    } as RequestInit);
    expect((await handler.fetch(request, 'context')).status).toBe(413);
  });

  it('a body of 4 MiB, with no declared length: 413 once past the bound, the rest not read', async () => {
    const { handler, handled } = handlerWith();
    const chunk = 64 * 1024;
    const chunks = (4 * MAX_INTERACTION_BODY_BYTES) / chunk;
    let pulled = 0;
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(chunk));
        if (pulled === chunks) controller.close();
      },
    });
    const request = new Request('http://interactions.test/', {
      method: 'POST',
      body: large,
      duplex: 'half',
    } as RequestInit);
    expect((await handler.fetch(request, 'context')).status).toBe(413);
    // Read up to the bound and a chunk past it (and what the stream queued ahead), not to the end.
    expect(pulled).toBeLessThan(chunks / 2);
    expect(handled).toEqual([]);
  });

  it('a body at the bound is read and checked (401 here: unsigned)', async () => {
    const { handler } = handlerWith();
    const request = new Request('http://interactions.test/', {
      method: 'POST',
      body: new Uint8Array(MAX_INTERACTION_BODY_BYTES),
    });
    expect((await handler.fetch(request, 'context')).status).toBe(401);
  });
});

describe('a verified interaction', () => {
  it("goes to handle, typed, with the call's context; its callback body is the answer", async () => {
    const { handler, handled } = handlerWith({
      handle: (interaction, context) => {
        handled.push({ interaction, context });
        return interaction.type === InteractionType.ApplicationCommand
          ? respond.reply({ content: `/${interaction.data.name} from ${context}`, flags: MessageFlags.Ephemeral })
          : respond.deferUpdate();
      },
    });
    const response = await handler.fetch(signedRequest(await signer.sign(COMMAND)), 'a worker');
    expect(await answered(response)).toEqual({
      status: 200,
      body: {
        type: InteractionResponseType.ChannelMessageWithSource,
        data: { content: '/hello from a worker', flags: MessageFlags.Ephemeral },
      },
    });
    expect(handled).toEqual([{ interaction: COMMAND, context: 'a worker' }]);
  });

  it('whose handle throws: 500 with a generic body; onError gets the error with the token replaced', async () => {
    const onError = vi.fn();
    const { handler } = handlerWith({
      handle: (interaction) => {
        throw new Error(`could not edit /webhooks/${APPLICATION_ID}/${interaction.token}/messages/@original`);
      },
      onError,
    });
    const response = await handler.fetch(signedRequest(await signer.sign(COMMAND)), 'context');
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({ message: 'The interaction handler failed' });
    expect(text).not.toContain('webhooks');
    expect(onError).toHaveBeenCalledOnce();
    const [error, summary] = onError.mock.calls[0]!;
    expect((error as Error).message).toBe(`could not edit /webhooks/${APPLICATION_ID}/[token]/messages/@original`);
    expect((error as Error).stack).not.toContain(INTERACTION_TOKEN);
    expect(summary).toEqual({ id: COMMAND.id, type: COMMAND.type });
  });

  it('whose handle rejects with the token in a string, or resolves to no callback body: 500, and no token logged', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const failing: InteractionHandlerOptions<string>['handle'][] = [
        (interaction) => Promise.reject(`token ${interaction.token} refused`),
        () => undefined as never,
        () => ({ content: 'not a callback body' }) as never,
        () => ({ type: 4, data: { big: 1n } }) as never,
      ];
      for (const handle of failing) {
        const { handler } = handlerWith({ handle });
        expect((await handler.fetch(signedRequest(await signer.sign(COMMAND)), 'context')).status).toBe(500);
      }
      expect(logged).toHaveBeenCalledTimes(failing.length);
      const lines = logged.mock.calls.map((call) =>
        call.map((part) => (part instanceof Error ? `${part.message}\n${part.stack}` : String(part))).join(' '),
      );
      for (const line of lines) {
        expect(line).toContain(`interaction ${COMMAND.id} (type 2) failed`);
        expect(line).not.toContain(INTERACTION_TOKEN);
      }
      expect(lines[0]).toContain('token [token] refused');
    } finally {
      logged.mockRestore();
    }
  });

  it('whose onError throws too: still the 500', async () => {
    const { handler } = handlerWith({
      handle: () => {
        throw new Error('handle failed');
      },
      onError: () => {
        throw new Error('onError failed');
      },
    });
    expect((await handler.fetch(signedRequest(await signer.sign(COMMAND)), 'context')).status).toBe(500);
  });
});

describe('made without what it needs: a TollgateArgumentError, at once', () => {
  const handle = () => respond.pong();
  it.each([
    ['no options', undefined],
    ['no public key', { handle }],
    ['a public key one digit short', { publicKey: signer.publicKey.slice(1), handle }],
    ['a public key that is not hex', { publicKey: 'x'.repeat(64), handle }],
    ['a public key that is a bot token', { publicKey: 'Bot MTMwMDAwMDAwMDAwMDAwMDAwMQ.secret', handle }],
    ['a public key that is bytes', { publicKey: new Uint8Array(32), handle }],
    ['no handle', { publicKey: signer.publicKey }],
    ['an onError that is no function', { publicKey: signer.publicKey, handle, onError: 'log' }],
  ])('%s', (_, options) => {
    let thrown: unknown;
    try {
      createInteractionHandler(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toBeInstanceOf(TollgateError);
    expect((thrown as TollgateError).code).toBe('ARGUMENT');
    expect((thrown as Error).message).toMatch(/^createInteractionHandler: /);
    expect((thrown as Error).message).not.toContain('secret');
  });
});

describe('deferred, then finished through the client', () => {
  const BASE = 'http://discord.test/api/v10';
  const edits: { url: string; authorization: string | null; body: unknown }[] = [];
  const service = setupServer(
    http.patch(`${BASE}/webhooks/:application/:token/messages/@original`, async ({ request }) => {
      const body = await request.json();
      edits.push({ url: request.url, authorization: request.headers.get('authorization'), body });
      return HttpResponse.json({ id: '1300000000000000005', ...(body as object) });
    }),
  );
  beforeAll(() => service.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => service.close());
  afterEach(() => void edits.splice(0));

  it('answers deferReply at once, then edits the original response without the bot token', async () => {
    const client = createClient({ baseUrl: BASE, token: 'Bot MTMwMDAwMDAwMDAwMDAwMDAwMQ.bot-token' });
    const later: Promise<unknown>[] = [];
    const handler = createInteractionHandler({
      publicKey: signer.publicKey,
      handle: (interaction: ReceivedInteraction) => {
        later.push(client.interactions.original.edit(APPLICATION_ID, interaction.token, { content: 'done thinking' }));
        return respond.deferReply({ ephemeral: true });
      },
    });
    const response = await handler.fetch(signedRequest(await signer.sign(COMMAND)));
    expect(await answered(response)).toEqual({
      status: 200,
      body: { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } },
    });
    await Promise.all(later);
    expect(edits).toEqual([
      {
        url: `${BASE}/webhooks/${APPLICATION_ID}/${INTERACTION_TOKEN}/messages/@original`,
        authorization: null,
        body: { content: 'done thinking' },
      },
    ]);
    await client.close();
  });
});
