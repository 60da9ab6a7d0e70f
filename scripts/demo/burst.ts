/**
 * The demo's workload: concurrent callers pushing a realistic mix of typed calls over several
 * channels and guilds, with every wait and response counted.
 */
import { HttpError, type ApiVersion, type TollgateClient, type WaitEvent, type WaitReason } from '../../src/index.ts';
import { classifyV10 } from '../../src/dialects/v10/route.ts';

export const CHANNELS = ['81384788765712384', '81384788765712385', '81384788765712386'];
export const GUILDS = ['41771983423143937', '41771983423143938'];

export interface BurstStats {
  readonly perBucket: Map<string, { sent: number; total: number; waits: number }>;
  readonly waitMsByReason: Map<WaitReason, number>;
  responses: number;
  tooManyRequests: number;
  failures: number;
}

export interface Call {
  readonly bucketKey: string;
  readonly run: (client: TollgateClient) => Promise<unknown>;
}

/**
 * The mix, in order: messages on every channel, member lists per guild, gateway, current user.
 * Bucket keys are the client's: v6's route keys, or v10's route + resource.
 */
export function burstCalls(total: number, api: ApiVersion): Call[] {
  const calls: Call[] = [];
  const key = (v6: string, method: string, path: string) =>
    api === 'v6' ? v6 : classifyV10(method, path, 0).bucketKey;
  for (let i = 0; calls.length < total; i++) {
    const channel = CHANNELS[i % CHANNELS.length]!;
    const kind = i % 6;
    const guild = GUILDS[Math.floor(i / 6) % GUILDS.length]!;
    if (kind <= 1) {
      calls.push({
        bucketKey: key(`ChannelsIdMessages:${channel}`, 'POST', `/channels/${channel}/messages`),
        run: (client) => client.channels.messages.create(channel, { content: `demo message ${i}` }),
      });
    } else if (kind === 2) {
      calls.push({
        bucketKey: key(`ChannelsIdMessages:${channel}`, 'GET', `/channels/${channel}/messages`),
        run: (client) => client.channels.messages.list(channel, { limit: 5 }),
      });
    } else if (kind === 3) {
      calls.push({
        bucketKey: key(`GuildsIdMembers:${guild}`, 'GET', `/guilds/${guild}/members`),
        run: (client) => client.guilds.members.list(guild, { limit: 100 }),
      });
    } else if (kind === 4) {
      calls.push({ bucketKey: key('Gateway', 'GET', '/gateway'), run: (client) => client.gateway.get() });
    } else {
      calls.push({ bucketKey: key('UsersMe', 'GET', '/users/@me'), run: (client) => client.users.me.get() });
    }
  }
  return calls;
}

export function newStats(calls: readonly Call[]): BurstStats {
  const perBucket = new Map<string, { sent: number; total: number; waits: number }>();
  for (const call of calls) {
    const entry = perBucket.get(call.bucketKey) ?? { sent: 0, total: 0, waits: 0 };
    entry.total += 1;
    perBucket.set(call.bucketKey, entry);
  }
  return { perBucket, waitMsByReason: new Map(), responses: 0, tooManyRequests: 0, failures: 0 };
}

export function recordWait(stats: BurstStats, event: WaitEvent): void {
  stats.waitMsByReason.set(event.reason, (stats.waitMsByReason.get(event.reason) ?? 0) + event.waitMs);
  const entry = stats.perBucket.get(event.bucketKey);
  if (entry) entry.waits += 1;
}

/** Counts what came back over the wire (429s included, which the limiter then handles). */
export function countingFetch(stats: BurstStats): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    stats.responses += 1;
    if (response.status === 429) stats.tooManyRequests += 1;
    return response;
  };
}

/** Runs the calls with `concurrency` callers, each taking the next call when its last one ends. */
export async function runBurst(
  client: TollgateClient,
  calls: readonly Call[],
  concurrency: number,
  stats: BurstStats,
  onProgress: () => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const call = calls[next++]!;
      try {
        await call.run(client);
      } catch (error) {
        stats.failures += 1;
        if (!(error instanceof HttpError)) throw error;
      }
      stats.perBucket.get(call.bucketKey)!.sent += 1;
      onProgress();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
