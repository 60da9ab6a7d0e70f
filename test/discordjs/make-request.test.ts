/**
 * What tollgate/discordjs hands the relay of @discordjs/rest's request (`makeRequest(url, init)`),
 * on a scripted fetch and a manual clock: every value of a header REST gives as a list. The answers REST is handed back are test/discordjs/window-headers.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { makeRequest } from '../../src/discordjs/index.ts';
import { driveUntilSettled, ManualClock } from '../support/manual-clock.ts';

const ROOT = 'http://bridge.test/api';
const MESSAGES = `${ROOT}/v10/channels/1/messages`;

/** A bridge whose fetch records each request and answers it with `headers` (a window, say). */
function bridgeAnswering(headers: Record<string, string> = {}) {
  const clock = new ManualClock();
  const sent: Request[] = [];
  const bridge = makeRequest({
    apiRoot: ROOT,
    clock,
    maxWait: 60_000,
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
});
