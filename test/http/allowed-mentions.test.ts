/**
 * The client's `allowedMentions` default: filled into every body the catalog says takes
 * `allowed_mentions` (from Discord's OpenAPI document) and that names none of its own, and nowhere else.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../generated/routes.ts';
import { createClient, TollgateArgumentError, type AllowedMentions } from '../../src/index.ts';
import type { OperationDefinition } from '../../src/sdk.ts';
import { withDefaultMentions } from '../../src/http/mentions.ts';

const BASE = 'http://mentions.test/api/v10';
const sent: { path: string; contentType: string | null; body: string }[] = [];
const server = setupServer(
  http.all(`${BASE}/*`, async ({ request }) => {
    sent.push({
      path: new URL(request.url).pathname,
      contentType: request.headers.get('content-type'),
      body: await request.text(),
    });
    return HttpResponse.json({ id: '1' });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => void sent.splice(0));
afterAll(() => server.close());

const NO_ONE: AllowedMentions = { parse: [] };
const client = createClient({ baseUrl: BASE, token: 'Bot mentions', allowedMentions: NO_ONE });
const CHANNEL = '81384788765712384';
const json = (index = 0) => JSON.parse(sent[index]!.body) as Record<string, unknown>;

describe('which operations take it comes from the catalog', () => {
  it('is every operation whose body Discord documents with allowed_mentions: messages, webhooks, interactions, forum posts', () => {
    const all: readonly OperationDefinition[] = Object.values(operations);
    const taking = all
      .filter((operation) => operation.allowedMentionsIn !== undefined)
      .map((operation) => `${operation.name} ${operation.allowedMentionsIn}`)
      .sort();
    expect(taking).toEqual([
      'channels.messages.create body',
      'channels.messages.edit body',
      'channels.threads.create message',
      'interactions.callback.create data',
      'interactions.followups.create body',
      'interactions.followups.edit body',
      'interactions.original.edit body',
      'lobbies.messages.create body',
      'webhooks.execute body',
      'webhooks.messages.editWithToken body',
    ]);
  });
});

describe('a body that names none gets the default', () => {
  it('message create and edit', async () => {
    await client.channels.messages.create(CHANNEL, { content: '@everyone hi' });
    await client.channels.messages.edit(CHANNEL, '2', { content: '@here' });
    // A message create also carries its nonce (resends cannot duplicate it), which has nothing to do with mentions.
    expect(json(0)).toMatchObject({ content: '@everyone hi', allowed_mentions: NO_ONE });
    expect(json(1)).toEqual({ content: '@here', allowed_mentions: NO_ONE });
  });

  it('webhook execute and edit, follow-ups and the original response', async () => {
    await client.webhooks.execute('3', 'webhook-token', { content: 'a' });
    await client.webhooks.messages.editWithToken('3', 'webhook-token', '4', { content: 'b' });
    await client.interactions.followups.create('5', 'interaction-token', { content: 'c' });
    await client.interactions.followups.edit('5', 'interaction-token', '6', { content: 'd' });
    await client.interactions.original.edit('5', 'interaction-token', { content: 'e' });
    expect(sent.map((_, index) => json(index).allowed_mentions)).toEqual(Array(5).fill(NO_ONE));
  });

  it("an interaction response's message, in its data", async () => {
    await client.interactions.callback.create('7', 'interaction-token', { type: 4, data: { content: '@everyone' } });
    await client.interactions.callback.create('7', 'interaction-token', { type: 7, data: { content: 'updated' } });
    expect(json(0)).toEqual({ type: 4, data: { content: '@everyone', allowed_mentions: NO_ONE } });
    expect(json(1)).toEqual({ type: 7, data: { content: 'updated', allowed_mentions: NO_ONE } });
  });

  it("a forum thread's first message", async () => {
    await client.channels.threads.create(CHANNEL, { name: 'Topic', message: { content: '@everyone read this' } });
    expect(json()).toEqual({ name: 'Topic', message: { content: '@everyone read this', allowed_mentions: NO_ONE } });
  });

  it('a body sent as multipart carries it in payload_json', async () => {
    await client.channels.messages.create(CHANNEL, { content: 'file', files: [{ name: 'a.txt', data: 'hello' }] });
    expect(sent[0]!.contentType).toMatch(/^multipart\/form-data/);
    const payload = /name="payload_json"\r\n(?:[^\r\n]+\r\n)*\r\n(.*)\r\n/.exec(sent[0]!.body)?.[1];
    expect(JSON.parse(payload!)).toMatchObject({ content: 'file', allowed_mentions: NO_ONE });
  });
});

describe("a body's own choice wins, and nothing else is touched", () => {
  it("the body's own allowed_mentions, null included, is sent as given", async () => {
    const own = { parse: ['users'], replied_user: true };
    await client.channels.messages.create(CHANNEL, { content: 'a', allowed_mentions: own as never });
    await client.channels.messages.create(CHANNEL, { content: 'b', allowed_mentions: null as never });
    await client.interactions.callback.create('7', 'interaction-token', {
      type: 4,
      data: { content: 'c', allowed_mentions: { parse: ['roles'] } },
    } as never);
    expect(json(0).allowed_mentions).toEqual(own);
    expect(json(1).allowed_mentions).toBeNull();
    expect(json(2)).toEqual({ type: 4, data: { content: 'c', allowed_mentions: { parse: ['roles'] } } });
  });

  it("a modal's, an autocomplete's and a deferral's data are no message: left as they are", async () => {
    const modal = { type: 9, data: { custom_id: 'm', title: 'T', components: [] } };
    const choices = { type: 8, data: { choices: [] } };
    const deferred = { type: 5, data: { flags: 64 } };
    for (const body of [modal, choices, deferred]) await client.interactions.callback.create('7', 't', body as never);
    expect(sent.map((_, index) => json(index))).toEqual([modal, choices, deferred]);
  });

  it('an operation that takes none, and a FormData body, are sent as given', async () => {
    await client.channels.edit(CHANNEL, { name: 'renamed' });
    const form = new FormData();
    form.set('payload_json', JSON.stringify({ content: 'mine' }));
    await client.channels.messages.create(CHANNEL, form);
    expect(json(0)).toEqual({ name: 'renamed' });
    expect(sent[1]!.body).toContain('{"content":"mine"}');
    expect(sent[1]!.body).not.toContain('allowed_mentions');
  });

  it("the caller's object is never changed", () => {
    const body = { content: 'x', message: { content: 'y' }, data: { content: 'z' }, type: 4 };
    const before = structuredClone(body);
    for (const allowedMentionsIn of ['body', 'message', 'data'] as const) {
      expect(withDefaultMentions({ allowedMentionsIn }, body, NO_ONE)).not.toBe(body);
    }
    expect(body).toEqual(before);
  });

  it('a client without the option sends bodies as given', async () => {
    const plain = createClient({ baseUrl: BASE, token: 'Bot mentions' });
    await plain.channels.messages.edit(CHANNEL, '2', { content: '@everyone' });
    expect(json()).toEqual({ content: '@everyone' });
    await plain.close();
  });
});

describe('a bad default is refused when the client is made', () => {
  it.each([
    [{ parse: ['everybody'] }, /allowedMentions.parse/],
    [{ parse: ['users'], users: ['1'] }, /parse 'users' and a list of users exclude each other/],
    [{ parse: ['roles'], roles: ['1'] }, /parse 'roles' and a list of roles exclude each other/],
    [{ users: Array.from({ length: 101 }, (_, i) => String(i)) }, /users may name at most 100/],
    [{ roles: ['not an id'] }, /allowedMentions.roles must be a list of ids/],
    [{ replied_user: 'yes' }, /replied_user must be a boolean/],
    [{ everyone: false }, /allowedMentions/],
    ['none', /allowedMentions must be an object/],
  ])('%j', (allowedMentions, message) => {
    const make = () => createClient({ baseUrl: BASE, allowedMentions: allowedMentions as never });
    expect(make).toThrow(TollgateArgumentError);
    expect(make).toThrow(message);
  });
});
