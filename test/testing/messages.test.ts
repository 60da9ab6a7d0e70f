/** The messages the reference service makes: fresh ids, the service's errors, and enforce_nonce's window. */
import type { APIMessage } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { MessageLedger, NONCE_WINDOW_MS } from '../../src/testing/messages.ts';
import { ManualClock } from '../support/manual-clock.ts';

const SAMPLE = { id: '1', channel_id: '1', content: 'sample', embeds: [], attachments: [] } as unknown as APIMessage;
const json = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

it('ids are fresh and rising even when many are made in one ms', async () => {
  const ledger = new MessageLedger(new ManualClock());
  const ids: bigint[] = [];
  for (let i = 0; i < 50; i++) {
    const { body } = await ledger.create('7', 'Bot a', 'application/json', json({ content: `#${i}` }), SAMPLE);
    ids.push(BigInt((body as APIMessage).id));
  }
  expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
  expect(ledger.messages.map((message) => message.content)).toEqual(ids.map((_, i) => `#${i}`));
});

it('a body over the limit is a 413; a bad multipart body a 400; neither makes a message', async () => {
  const ledger = new MessageLedger(new ManualClock());
  expect(await ledger.create('7', 'Bot a', 'application/json', undefined, SAMPLE)).toMatchObject({
    status: 413,
    body: { code: 40005 },
  });
  const broken = new TextEncoder().encode('--x\r\nnot a part');
  expect((await ledger.create('7', 'Bot a', 'multipart/form-data; boundary=x', broken, SAMPLE)).status).toBe(400);
  expect((await ledger.create('7', 'Bot a', 'application/json', json([1]), SAMPLE)).status).toBe(400);
  expect(ledger.messages).toEqual([]);
});

it('multipart without payload_json: its plain fields are the message', async () => {
  const ledger = new MessageLedger(new ManualClock());
  const form = new FormData();
  form.set('content', 'from fields');
  form.set('files[0]', new Blob(['x']), 'x.txt');
  const request = new Request('http://x.invalid', { method: 'POST', body: form });
  const bytes = new Uint8Array(await request.arrayBuffer());
  const { status, body } = await ledger.create('7', 'Bot a', request.headers.get('content-type')!, bytes, SAMPLE);
  expect(status).toBe(200);
  expect(body).toMatchObject({ content: 'from fields', attachments: [{ filename: 'x.txt', size: 1 }] });
});

it('enforce_nonce remembers a nonce for the window, per channel and caller', async () => {
  const clock = new ManualClock();
  const ledger = new MessageLedger(clock);
  const send = async (channel: string, auth: string) =>
    (
      (
        await ledger.create(
          channel,
          auth,
          'application/json',
          json({ content: 'x', nonce: 'n', enforce_nonce: true }),
          SAMPLE,
        )
      ).body as APIMessage
    ).id;
  const first = await send('7', 'Bot a');
  expect(await send('7', 'Bot a')).toBe(first);
  expect(await send('8', 'Bot a')).not.toBe(first);
  expect(await send('7', 'Bot b')).not.toBe(first);
  await clock.advance(NONCE_WINDOW_MS);
  expect(await send('7', 'Bot a')).not.toBe(first);
  expect(ledger.messages).toHaveLength(4);
});
