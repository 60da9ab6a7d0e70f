/** The reference service's answers: every catalog operation with a result type gets a sample of it, or 204. */
import { expect, it } from 'vitest';
import { catalog } from '../../catalog/routes.ts';
import { isEmptyResult, operationOf, sampleResult } from '../../src/testing/fixtures.ts';

const typed = catalog.routes.flatMap((route) =>
  route.operations.filter((operation) => operation.types?.result).map((operation) => ({ route, operation })),
);

it.each(typed.map(({ operation }) => [operation.name, operation.types!.result!]))(
  '%s answers a %s (or 204 where it is empty)',
  (name, resultType) => {
    const body = sampleResult(name, { channel_id: '1', guild_id: '2', message_id: '3' }, 'fallback');
    // Empty results are checked to be never/undefined where fixtures.ts compiles.
    if (isEmptyResult(resultType)) expect(body).toBeUndefined();
    else expect(typeof body).toBe('object');
  },
);

it('finds the operation and its ids from a request path', () => {
  expect(operationOf('DELETE', '/api/v10/channels/0081/messages/2?x=1')).toEqual({
    name: 'channels.messages.delete',
    ids: { channel_id: '81', message_id: '2' },
  });
  expect(operationOf('GET', '/users/@me')).toEqual({ name: 'users.me.get', ids: {} });
  expect(operationOf('GET', '/nowhere')).toBeUndefined();
});

it('fills the path ids into the sample', () => {
  expect(sampleResult('channels.messages.get', { channel_id: '81', message_id: '99' }, undefined)).toMatchObject({
    id: '99',
    channel_id: '81',
    author: { username: 'tollgate' },
  });
});
