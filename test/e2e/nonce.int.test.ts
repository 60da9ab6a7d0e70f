/**
 * Retries that cannot duplicate, end to end: a message create whose first attempt times out (the
 * service still makes the message) is resent with the same nonce, and the service, honouring
 * enforce_nonce, answers with the message it already made: one message in all.
 */
import { afterEach, expect, it } from 'vitest';
import { startE2E, type E2E } from '../support/e2e.ts';

const CHANNEL = '81384788765712384';

let e2e: E2E;
afterEach(async () => {
  await e2e.stop();
});

it('a timed-out message create is resent with its nonce, and the service makes one message', async () => {
  e2e = await startE2E({ api: 'v10' });
  const client = e2e.newClient({ timeout: 100 });
  e2e.service.inject({ fault: { kind: 'slow', delayMs: 400 }, bucketKeyPrefix: 'POST /channels/:id/messages' });
  const [result] = await e2e.drive([client.channels.messages.create(CHANNEL, { content: 'once' })], 50);
  expect(result).toMatchObject({ status: 'fulfilled', value: { content: 'once' } });
  const creates = e2e.service.requests.filter((request) => request.method === 'POST');
  expect(creates).toHaveLength(2);
  const made = e2e.service.createdMessages(CHANNEL);
  expect(made).toHaveLength(1);
  expect(result?.status === 'fulfilled' && (result.value as { id: string }).id).toBe(made[0]!.id);
});

it('without enforce_nonce the same timeout is not resent: the error reaches the caller', async () => {
  e2e = await startE2E({ api: 'v10' });
  const client = e2e.newClient({ timeout: 100 });
  e2e.service.inject({ fault: { kind: 'slow', delayMs: 400 }, bucketKeyPrefix: 'POST /channels/:id/messages' });
  const [result] = await e2e.drive(
    [client.channels.messages.create(CHANNEL, { content: 'x', enforce_nonce: false })],
    50,
  );
  expect(result).toMatchObject({ status: 'rejected', reason: { name: 'TimeoutError' } });
  expect(e2e.service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
});
