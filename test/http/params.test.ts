/**
 * The parameters slot at run time, for the one shape no catalog operation has yet: a body that
 * came after the query (`bodyIn: 'options'`), which the generated method passes in its options.
 * The caller the generated resources are built over is taken from `createResources`, in an SDK
 * plugged into the core as src/index.ts plugs in the generated one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createResources, operations, routeTable } from '../../generated/index.ts';
import { PACKAGE_URL, PACKAGE_VERSION } from '../../generated/package.ts';
import { createClientWith } from '../../src/http/client.ts';
import { createCdn } from '../../src/index.ts';
import type { OperationCaller } from '../../src/sdk.ts';

const captured: { caller?: OperationCaller } = {};
/** The generated SDK as src/index.ts plugs it in, its `createResources` keeping the caller it is given. */
const sdk = {
  createResources: (call: OperationCaller) => {
    captured.caller = call;
    return createResources(call);
  },
  dialectData: { v6: routeTable, v10: operations },
  createCdn,
  package: { version: PACKAGE_VERSION, url: PACKAGE_URL },
};

const sent: { method: string; url: string; body: string | null; type: string | null }[] = [];
// The client is built for its caller (captured above); its methods are not called here.
createClientWith(sdk, {
  token: 'Bot params-token',
  baseUrl: 'http://params.test/api/v10',
  fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push({
      method: request.method,
      url: request.url,
      body: request.body ? await request.text() : null,
      type: request.headers.get('content-type'),
    });
    return Response.json({ ok: true });
  },
});
afterEach(() => {
  sent.length = 0;
});

// guilds.members.list, as if a body had come to it after its query (the sync would write bodyIn).
const lateBody = {
  ...operations['guilds.members.list'],
  method: 'POST',
  body: 'optional',
  bodyInOptions: true,
} as const;

describe("a body in the options, the query in the parameters' place", () => {
  it('sends the query from the parameters and the body from the options', async () => {
    await captured.caller!(lateBody, ['41771983423143937'], { query: { limit: 5 } }, {
      body: { note: 'late' },
    } as never);
    expect(sent).toEqual([
      {
        method: 'POST',
        url: 'http://params.test/api/v10/guilds/41771983423143937/members?limit=5',
        body: '{"note":"late"}',
        type: 'application/json',
      },
    ]);
  });

  it('a body in the options of an operation whose body is its parameters is an unknown option', async () => {
    const bodyFirst = { ...lateBody, bodyInOptions: undefined };
    await expect(
      captured.caller!(bodyFirst, ['41771983423143937'], { body: {} }, { body: { note: 'x' } } as never),
    ).rejects.toThrow(/unknown option "body"/);
    expect(sent).toEqual([]);
  });
});
