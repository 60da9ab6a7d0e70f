/**
 * What tollgate/discordjs hands the relay of @discordjs/rest's request (`makeRequest(url, init)`),
 * on a scripted fetch and a manual clock: every value of a header REST gives as a list, and REST's
 * abort signal. The answers REST is handed back are test/discordjs/window-headers.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { ClientClosedError } from '../../src/index.ts';
import { DEFAULT_MAKE_REQUEST_MAX_WAIT_MS, makeRequest, type MakeRequestOptions } from '../../src/discordjs/index.ts';
import { driveUntilSettled, ManualClock } from '../support/manual-clock.ts';

const ROOT = 'http://bridge.test/api';
const MESSAGES = `${ROOT}/v10/channels/1/messages`;

/** A bridge whose fetch records each request and answers it with `headers` (a window, say). */
function bridgeAnswering(headers: Record<string, string> = {}, options: MakeRequestOptions = { maxWait: 60_000 }) {
  const clock = new ManualClock();
  const sent: Request[] = [];
  const bridge = makeRequest({
    ...options,
    apiRoot: ROOT,
    clock,
    fetch: async (input, init) => {
      sent.push(new Request(input, init));
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json', ...headers } });
    },
  });
  return { clock, sent, bridge };
}

describe("tollgate/discordjs passes REST's request on", () => {
  it('with every value of a header given as a list', async () => {
    const { clock, sent, bridge } = bridgeAnswering();
    const response = bridge(MESSAGES, {
      method: 'POST',
      headers: { authorization: 'Bot a', 'x-listed': ['first', 'second', 'third'], 'x-single': 'one' },
      body: '{"content":"hi"}',
    });
    await driveUntilSettled(clock, [response]);
    expect((await response).status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.get('x-listed')).toBe('first, second, third');
    expect(sent[0]!.headers.get('x-single')).toBe('one');
    await bridge.close();
  });

  it('with its abort signal: a request REST aborts while it waits for its place is never sent', async () => {
    // The first answer spends the bucket for 10 s: the second request waits for the window.
    const { clock, sent, bridge } = bridgeAnswering({
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': '10',
      'x-ratelimit-bucket': 'spent',
    });
    const init = (content: string, signal?: AbortSignal) => ({
      method: 'POST',
      headers: { authorization: 'Bot a', 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
      ...(signal && { signal }),
    });
    const first = bridge(MESSAGES, init('first'));
    await driveUntilSettled(clock, [first]);
    expect((await first).status).toBe(200);

    const controller = new AbortController();
    const waiting = bridge(MESSAGES, init('aborted', controller.signal));
    const outcome = waiting.then(
      (response) => `answered ${response.status}`,
      (error: unknown) => (error as Error).name,
    );
    await clock.advance(1000);
    controller.abort();
    // Past the window: a wait that went on regardless would have sent it by now.
    await driveUntilSettled(clock, [outcome], 1000, 20);
    expect(await outcome).toBe('AbortError');
    expect(sent).toHaveLength(1);
    await bridge.close();
  });
});

describe("tollgate/discordjs's own maxWait, unless given", () => {
  const spentFor = (seconds: number) => ({
    'x-ratelimit-limit': '1',
    'x-ratelimit-remaining': '0',
    'x-ratelimit-reset-after': String(seconds),
    'x-ratelimit-bucket': 'spent',
  });
  const post = { method: 'POST', headers: { authorization: 'Bot a' }, body: '{"content":"hi"}' };

  it.each([
    ['a wait of two 5 s windows is waited out in its place', 9.9, 200, 2],
    ['a longer one is answered by a 429 tollgate makes, nothing sent', 10.1, 429, 1],
  ])('is %#: 10 s. %s', async (_, seconds, status, sends) => {
    expect(DEFAULT_MAKE_REQUEST_MAX_WAIT_MS).toBe(10_000);
    const { clock, sent, bridge } = bridgeAnswering(spentFor(seconds), {});
    const first = bridge(MESSAGES, post);
    await driveUntilSettled(clock, [first]);
    const second = bridge(MESSAGES, post);
    await driveUntilSettled(clock, [second], 500, 40);
    expect((await second).status).toBe(status);
    expect(sent).toHaveLength(sends);
    await bridge.close();
  });
});

describe("tollgate/discordjs takes REST's headers in each form undici allows", () => {
  it.each<[string, ConstructorParameters<typeof Headers>[0] | undefined, Record<string, string>]>([
    ['none at all', undefined, {}],
    [
      'as pairs, a pair without its value left out',
      [['x-a', '1'], ['x-a', '2'], ['x-b'] as unknown as [string, string]],
      { 'x-a': '1, 2' },
    ],
    ['as Headers', new Headers({ 'x-a': '1' }), { 'x-a': '1' }],
    [
      'as an object, a value left undefined left out',
      { 'x-a': '1', 'x-b': undefined as unknown as string },
      { 'x-a': '1' },
    ],
  ])('%s', async (_, headers, expected) => {
    const { clock, sent, bridge } = bridgeAnswering();
    const response = bridge(MESSAGES, { method: 'GET', headers: headers as never });
    await driveUntilSettled(clock, [response]);
    expect((await response).status).toBe(200);
    expect(sent).toHaveLength(1);
    const given = Object.fromEntries([...sent[0]!.headers].filter(([name]) => name.startsWith('x-')));
    expect(given).toEqual(expected);
    await bridge.close();
  });
});

describe("tollgate/discordjs's makeRequest itself", () => {
  it('takes no options at all', async () => {
    const bridge = makeRequest();
    await bridge.close();
  });

  it('close() ends it: a request after it is refused, and nothing is sent', async () => {
    const { sent, bridge } = bridgeAnswering();
    await bridge.close();
    await expect(bridge(MESSAGES, { method: 'GET' })).rejects.toBeInstanceOf(ClientClosedError);
    expect(sent).toEqual([]);
  });
});
