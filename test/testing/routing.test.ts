/** What the reference service serves at all: its API version, the catalog's paths and methods, and the routes open without a token. */
import { describe, expect, it } from 'vitest';
import { classifyV10 } from '../../src/dialects/v10/route.ts';
import { matchOperation, methodsAt } from '../../src/testing/catalog-match.ts';
import { openRoute, pathBelowBase, refusalOf } from '../../src/testing/routing.ts';

describe('pathBelowBase: the path under the API, or undefined where the service does not serve it', () => {
  it.each([
    ['v6', '/api/v6', '/api/v6/channels/1', '/channels/1'],
    ['v6', '/api/v6', '/api/channels/1', '/channels/1'],
    ['v6', '/api/v6', '/api/v6', '/'],
    ['v6', '/api/v6', '/api/v10/channels/1', undefined],
    ['v6', '/api/v6', '/api/v7/channels/1', undefined],
    ['v6', '/api/v6', '/channels/1', undefined],
    ['v6', '/api/v6', '/api/v6/v10/channels/1', undefined],
    ['v6', '/api/v6', '/api/v6/api/channels/1', undefined],
    ['v10', '/api/v10', '/api/v10/channels/1', '/channels/1'],
    ['v10', '/api/v10', '/api/v9/channels/1', '/channels/1'],
    ['v10', '/api/v10', '/api/v8/channels/1', '/channels/1'],
    ['v10', '/api/v10', '/api/v6/channels/1', undefined],
    ['v10', '/api/v10', '/api/channels/1', undefined],
    ['v10', '/api/v10', '/api/v11/channels/1', undefined],
    ['v10', '/api/v10', '/api/v10x/channels/1', undefined],
    ['v10', '', '/channels/1', '/channels/1'],
    ['v10', '', '/api/v6/channels/1', undefined],
    ['v6', '/custom', '/custom/channels/1', '/channels/1'],
    ['v6', '/custom', '/customer/channels/1', undefined],
  ] as const)('%s service on %j: %s → %s', (api, basePath, pathname, expected) => {
    expect(pathBelowBase(pathname, api, basePath)).toBe(expected);
  });
});

describe('refusalOf: 404 for a path no operation has, 405 for a method it does not take', () => {
  const refusal = (method: string, path: string) => refusalOf(path, matchOperation(method, path))?.status;
  it.each([
    ['GET', '/channels/1', undefined],
    ['GET', '/oauth2/applications/@me', undefined],
    ['GET', '/channels/abc', 404],
    ['GET', '/nowhere', 404],
    ['GET', '/', 404],
    ['GET', '/invites/%E0%A4%A', 404],
    ['POST', '/gateway', 405],
    ['PUT', '/users/@me', 405],
  ])('%s %s → %s', (method, path, expected) => {
    expect(refusal(method, path)).toBe(expected);
  });

  it('methodsAt lists the methods of a path', () => {
    expect(methodsAt('/channels/1/messages').sort()).toEqual(['GET', 'POST']);
    expect(methodsAt('/nowhere')).toEqual([]);
  });
});

describe('openRoute: v10 serves these without Authorization', () => {
  const open = (method: string, path: string) =>
    openRoute(matchOperation(method, path), classifyV10(method, path, Date.now()).exempt);
  it.each([
    ['POST', '/interactions/1/token/callback', true],
    ['POST', '/webhooks/1/token', true],
    ['PATCH', '/webhooks/1/token/messages/@original', true],
    ['GET', '/guilds/1/widget.json', true],
    ['GET', '/guilds/1/widget.png', true],
    ['POST', '/oauth2/token', true],
    ['GET', '/gateway', true],
    ['GET', '/invites/abc', true],
    ['GET', '/gateway/bot', false],
    ['GET', '/users/@me', false],
    ['DELETE', '/invites/abc', false],
    ['GET', '/webhooks/1', false],
    ['POST', '/channels/1/messages', false],
  ])('%s %s → %s', (method, path, expected) => {
    expect(open(method, path)).toBe(expected);
  });
});
