/** File uploads: `files: [{ name, data }]` on multipart operations becomes the service's multipart form. */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createClient, TollgateArgumentError } from '../../src/index.ts';

const BASE = 'http://uploads.test/api/v10';
const received: { contentType: string | null; form?: FormData; json?: unknown }[] = [];
const server = setupServer(
  http.all(`${BASE}/*`, async ({ request }) => {
    const contentType = request.headers.get('content-type');
    if (contentType?.startsWith('multipart/form-data')) received.push({ contentType, form: await request.formData() });
    else received.push({ contentType, json: await request.json() });
    return HttpResponse.json({ id: '1' });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => void received.splice(0));
afterAll(() => server.close());

const client = createClient({ baseUrl: BASE, token: 'Bot uploads' });
const CHANNEL = '81384788765712384';

it('sends the body as payload_json, each file as files[n], listed in attachments', async () => {
  await client.channels.messages.create(CHANNEL, {
    content: 'two files',
    files: [
      { name: 'notes.txt', data: 'hello' },
      { name: 'image.png', data: new Uint8Array([137, 80, 78, 71]), contentType: 'image/png' },
    ],
  });
  const form = received[0]!.form!;
  expect(JSON.parse(form.get('payload_json') as string)).toEqual({
    content: 'two files',
    nonce: expect.stringMatching(/^\d{1,25}$/),
    enforce_nonce: true,
    attachments: [
      { id: 0, filename: 'notes.txt' },
      { id: 1, filename: 'image.png' },
    ],
  });
  const first = form.get('files[0]') as File;
  const second = form.get('files[1]') as File;
  expect([first.name, await first.text()]).toEqual(['notes.txt', 'hello']);
  expect([second.name, second.type, [...new Uint8Array(await second.arrayBuffer())]]).toEqual([
    'image.png',
    'image/png',
    [137, 80, 78, 71],
  ]);
});

it('keeps attachments the caller listed (descriptions), and works for webhooks and edits', async () => {
  await client.webhooks.execute('5', 'token', {
    content: 'x',
    attachments: [{ id: 0, description: 'a chart' }],
    files: [{ name: 'chart.svg', data: new Blob(['<svg/>'], { type: 'image/svg+xml' }) }],
  });
  await client.channels.messages.edit(CHANNEL, '2', { files: [{ name: 'a.txt', data: 'a' }] });
  const [webhook, edit] = received.map((request) => ({ form: request.form! }));
  expect(JSON.parse(webhook!.form.get('payload_json') as string).attachments).toEqual([
    { id: 0, description: 'a chart' },
  ]);
  expect((webhook!.form.get('files[0]') as File).type).toBe('image/svg+xml');
  expect(JSON.parse(edit!.form.get('payload_json') as string)).toEqual({ attachments: [{ id: 0, filename: 'a.txt' }] });
});

it("lists the files where the message is: an interaction response's data, a forum post's message", async () => {
  await client.interactions.callback.create('7', 'token', {
    type: 4,
    data: { content: 'here' },
    files: [{ name: 'report.csv', data: 'a,b' }],
  });
  await client.channels.threads.create(CHANNEL, {
    name: 'post',
    message: { content: 'first', attachments: [{ id: 0, description: 'a map' }] },
    files: [{ name: 'map.png', data: new Uint8Array([1]) }],
  });
  const [callback, post] = received.map((request) => JSON.parse(request.form!.get('payload_json') as string));
  expect(callback).toEqual({ type: 4, data: { content: 'here', attachments: [{ id: 0, filename: 'report.csv' }] } });
  expect(post).toEqual({ name: 'post', message: { content: 'first', attachments: [{ id: 0, description: 'a map' }] } });
  expect((received[1]!.form!.get('files[0]') as File).name).toBe('map.png');
  await expect(
    client.interactions.callback.create('7', 'token', {
      type: 4,
      data: 'x',
      files: [{ name: 'a', data: 'a' }],
    } as never),
  ).rejects.toThrow(/interactions\.callback\.create: body\.data must be an object to attach files to/);
});

it('a body without files stays JSON', async () => {
  await client.channels.messages.create(CHANNEL, { content: 'plain' });
  expect(received).toEqual([
    {
      contentType: 'application/json',
      json: { content: 'plain', nonce: expect.stringMatching(/^\d{1,25}$/), enforce_nonce: true },
    },
  ]);
});

it.each([
  ['an empty list', []],
  ['eleven files', Array.from({ length: 11 }, (_, i) => ({ name: `${i}.txt`, data: 'x' }))],
  ['a name with a slash', [{ name: '../etc/passwd', data: 'x' }]],
  ['data of another kind', [{ name: 'n.txt', data: 42 }]],
])('refuses %s before sending', async (_, files) => {
  await expect(client.channels.messages.create(CHANNEL, { content: 'x', files } as never)).rejects.toBeInstanceOf(
    TollgateArgumentError,
  );
  expect(received).toEqual([]);
});
