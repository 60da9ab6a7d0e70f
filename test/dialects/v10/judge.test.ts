/**
 * v10's judge reads a 429's body for its precise `retry_after` (V2): within the client's timeout,
 * and, under `timeout: false`, for as long as the body takes.
 */
import { describe, expect, it } from 'vitest';
import type { CallTarget } from '../../../src/contracts/dialect.ts';
import { v10Judge } from '../../../src/dialects/v10/judge.ts';
import { classifyV10 } from '../../../src/dialects/v10/route.ts';

const route = classifyV10('GET', '/channels/1', 0);
const TARGET: CallTarget = { routeKey: 'ChannelsId', bucket: route, exempt: false, webhookWithToken: false };

/** A 429 whose body arrives only when `send` is called. */
function held429() {
  let push: (text: string) => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      push = (text) => {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      };
    },
  });
  const response = new Response(body, {
    status: 429,
    headers: { 'retry-after': '1', 'x-ratelimit-scope': 'user', 'content-type': 'application/json' },
  });
  return { response, send: (text: string) => push(text) };
}

describe('v10Judge: a 429 body', () => {
  it('under timeout: false, is waited for however long it takes, and its retry_after counts', async () => {
    const { response, send } = held429();
    let settled = false;
    const verdict = Promise.resolve(v10Judge(undefined)(TARGET, response)).finally(() => (settled = true));
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    send('{"message":"You are being rate limited.","retry_after":2.5,"global":false}');
    expect(await verdict).toMatchObject({ rateLimit: { waitMs: 2500 } });
  });
});

describe("v10Judge: a 401 and the lane's kind of token (V16)", () => {
  const refusingBots: CallTarget = { ...TARGET, refusedTokens: ['bot'] };
  const unauthorized = () => new Response('{"message":"401: Unauthorized","code":0}', { status: 401 });

  it('leaves the token good where the route turns its kind away, and marks it dead where the route takes it', () => {
    expect(v10Judge(1000, Date.now, 'bot')(refusingBots, unauthorized())).toMatchObject({ update: { invalid: true } });
    expect(v10Judge(1000, Date.now, 'bot')(refusingBots, unauthorized())).not.toHaveProperty('update.tokenInvalid');
    expect(v10Judge(1000, Date.now, 'bearer')(refusingBots, unauthorized())).toMatchObject({
      update: { invalid: true, tokenInvalid: true },
    });
    expect(v10Judge(1000, Date.now, 'bot')(TARGET, unauthorized())).toMatchObject({ update: { tokenInvalid: true } });
  });
});
