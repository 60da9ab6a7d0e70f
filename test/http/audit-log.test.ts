/** The audit-log reason: `reason` on the operations the catalog marks, sent as X-Audit-Log-Reason. */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { createClient, TollgateArgumentError } from '../../src/index.ts';

const BASE = 'http://audit.test/api/v10';
const seen: (string | null)[] = [];
const server = setupServer(
  http.all(`${BASE}/*`, ({ request }) => {
    seen.push(request.headers.get('x-audit-log-reason'));
    return new HttpResponse(null, { status: 204 });
  }),
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => void seen.splice(0));
afterAll(() => server.close());

const client = createClient({ baseUrl: BASE, token: 'Bot audit' });
const GUILD = '41771983423143937';

it('is sent URL-encoded (the service reads it so), with any other header of the call', async () => {
  await client.guilds.members.remove(GUILD, '2', undefined, {
    reason: 'spam — règle n°3',
    headers: { 'x-trace': '1' },
  });
  expect(seen).toEqual([encodeURIComponent('spam — règle n°3')]);
});

it('is absent when not given', async () => {
  await client.guilds.members.remove(GUILD, '2');
  expect(seen).toEqual([null]);
});

it('is refused, before sending, where the action does not enter the audit log, or when empty or too long', async () => {
  await expect(client.channels.get('1', undefined, { reason: 'x' } as never)).rejects.toThrow(
    /unknown option "reason"/,
  );
  await expect(client.guilds.roles.delete(GUILD, '3', undefined, { reason: '' })).rejects.toBeInstanceOf(
    TollgateArgumentError,
  );
  await expect(client.guilds.roles.delete(GUILD, '3', undefined, { reason: 'x'.repeat(513) })).rejects.toThrow(
    /reason must be a string of 1 to 512 characters/,
  );
  expect(seen).toEqual([]);
});

it('the catalog marks only actions that write to a guild, channel, webhook or invite', () => {
  const marked = catalog.routes.flatMap((route) =>
    route.operations.filter((operation) => operation.auditLogReason).map((operation) => operation.method),
  );
  expect(marked.length).toBeGreaterThan(25);
  expect(marked).not.toContain('GET');
});
