/**
 * §3a end to end: 429s the service really gives, from a plain node:http server, to a v10 client
 * on a manual clock. A 429 from the service without bucket headers holds its route + resource for
 * the wait it names and then both calls resend; a CDN ban fails its call and holds the route for
 * its Retry-After, so queued calls do not go out into it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { CdnBanError, createClient, type TollgateClient } from '../../src/index.ts';
import { driveUntilSettled, ManualClock } from '../support/manual-clock.ts';

const CHANNEL = '81384788765712384';

interface Scripted {
  readonly client: TollgateClient;
  readonly clock: ManualClock;
  /** Virtual times at which the server got each request. */
  readonly arrivals: number[];
  close(): Promise<void>;
}

/** A server answering each request with the next scripted answer (then 200s with bucket headers). */
async function scripted(answers: ((response: ServerResponse) => void)[]): Promise<Scripted> {
  const clock = new ManualClock();
  const arrivals: number[] = [];
  const server: Server = createServer((request, response) => {
    arrivals.push(clock.now());
    request.resume();
    const answer = answers.shift();
    if (answer) return answer(response);
    response.writeHead(200, {
      'content-type': 'application/json',
      via: '1.1 google',
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '4',
      'x-ratelimit-reset-after': '1',
      'x-ratelimit-bucket': 'list',
    });
    response.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api/v10`, token: 'Bot scripted', clock });
  return {
    client,
    clock,
    arrivals,
    async close() {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let run: Scripted | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

it('§3a row 6: a 429 from the service without bucket headers holds the route + resource for its Retry-After; both calls then resolve, 3 requests in all', async () => {
  run = await scripted([
    (response) => {
      response.writeHead(429, { 'retry-after': '1', via: '1.1 google' });
      response.end();
    },
  ]);
  const start = run.clock.now();
  const calls = [run.client.channels.messages.list(CHANNEL), run.client.channels.messages.list(CHANNEL)];
  await driveUntilSettled(run.clock, calls, 50, 100);
  await expect(Promise.all(calls)).resolves.toEqual([[], []]);
  expect(run.arrivals).toHaveLength(3);
  // Nothing more on the route + resource until the second the answer named is over.
  expect(run.arrivals[1]! - start).toBeGreaterThanOrEqual(1000);
});

it('§3a row 1: a CDN ban fails its call and holds the route for its Retry-After: the queued call waits it out', async () => {
  run = await scripted([
    (response) => {
      response.writeHead(429, { 'retry-after': '2', 'content-type': 'text/plain' });
      response.end('error code: 1015');
    },
  ]);
  const start = run.clock.now();
  const first = run.client.channels.messages.list(CHANNEL);
  const second = run.client.channels.messages.list(CHANNEL);
  const caught = first.catch((error: unknown) => error);
  await driveUntilSettled(run.clock, [caught, second], 50, 100);
  expect(await caught).toBeInstanceOf(CdnBanError);
  await expect(second).resolves.toEqual([]);
  expect(run.arrivals).toHaveLength(2);
  expect(run.arrivals[1]! - start).toBeGreaterThanOrEqual(2000);
  expect(await run.client.invalidRequests()).toBe(1);
});
