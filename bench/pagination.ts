/**
 * Paged lists through the generated iterators:
 * 1. walking 10 000 messages of one channel through the reference service (v10), the channel's
 *    history limited to 5 requests a second: 100 pages of 100 and the empty one that shows the
 *    end; the span at the service (first request → last) against the least the limit allows
 *    (20 s: the windows after the first). The client waits V8's margin (50 ms) after each
 *    window, so it can reach at most 1000 / 1050 = 0.952 of that;
 * 2. memory while walking 100 000 items lazily (a child process with --expose-gc; pages made on
 *    the fly by a fetch of its own, so only the walk's own memory is measured): the heap after a
 *    full collection at 10 000, 50 000 and 100 000 items.
 */
import { createClient } from '../src/index.ts';
import { ReferenceService, type RateLimit } from '../src/testing/index.ts';
import { CHILD_FLAG, heapUsedAfterGc, runInChild } from './child.ts';

const CHANNEL = '81384788765712384';
const MESSAGES = 10_000;
const HISTORY_LIMIT: RateLimit = { limit: 5, windowMs: 1000 };
/** The history's largest page. */
const PAGE = 100;

export interface PaginationWalkResult {
  readonly items: number;
  readonly requests: number;
  readonly spanSeconds: number;
  readonly minimumSeconds: number;
  readonly status429: number;
}

export interface PaginationMemoryResult {
  readonly items: number;
  /** Heap after a full collection, in MiB, after this many items. */
  readonly heapMiB: readonly { readonly items: number; readonly heapMiB: number }[];
}

export async function runPaginationWalk(): Promise<PaginationWalkResult> {
  const service = await new ReferenceService({
    api: 'v10',
    routes: { 'GET /channels/:id/messages': HISTORY_LIMIT },
  }).start();
  service.lists.seed('channels.messages.list', { channel_id: CHANNEL }, MESSAGES);
  const client = createClient({ baseUrl: service.baseUrl, token: 'Bot pagination-bench' });
  try {
    let items = 0;
    for await (const message of client.channels.messages.listAll(CHANNEL)) if (message.id) items++;
    const history = service.requests.filter((request) => request.routeKey === 'GET /channels/:id/messages');
    // A plain array shows its end with a page shorter than asked for: 100 full pages, then an empty one.
    const requests = Math.floor(MESSAGES / PAGE) + 1;
    return {
      items,
      requests: history.length,
      spanSeconds: (history.at(-1)!.at - history[0]!.at) / 1000,
      minimumSeconds: ((Math.ceil(requests / HISTORY_LIMIT.limit) - 1) * HISTORY_LIMIT.windowMs) / 1000,
      status429: history.filter((request) => request.status === 429).length,
    };
  } finally {
    await client.close();
    await service.stop();
  }
}

const MEMORY_ITEMS = 100_000;
const CHECKPOINTS = [10_000, 50_000, 100_000];

async function measureMemory(): Promise<PaginationMemoryResult> {
  const heap = heapUsedAfterGc('pagination bench');
  const heapMiB = () => heap() / (1024 * 1024);
  // A history made on the fly: ids count down from the top, a page per request, generous limits.
  const top = 10n ** 17n;
  const fetchPage: typeof fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const before = BigInt(url.searchParams.get('before') ?? String(top));
    const limit = Number(url.searchParams.get('limit'));
    const page = Array.from({ length: limit }, (_, index) => {
      const id = String(before - 1n - BigInt(index));
      return { id, channel_id: CHANNEL, content: `message ${id}`, author: { id: '1', username: 'bench' } };
    });
    return new Response(JSON.stringify(page), {
      headers: {
        'content-type': 'application/json',
        'x-ratelimit-limit': '1000000',
        'x-ratelimit-remaining': '999999',
        'x-ratelimit-reset-after': '1',
        'x-ratelimit-bucket': 'history',
      },
    });
  };
  const client = createClient({ baseUrl: 'http://bench.invalid/api/v10', token: 'Bot memory', fetch: fetchPage });
  const samples: { items: number; heapMiB: number }[] = [];
  let items = 0;
  for await (const message of client.channels.messages.listAll(CHANNEL, { max: MEMORY_ITEMS })) {
    if (message.id) items++;
    if (CHECKPOINTS.includes(items)) samples.push({ items, heapMiB: heapMiB() });
  }
  await client.close();
  return { items, heapMiB: samples };
}

/** Runs the memory walk in a child process with --expose-gc. */
export const runPaginationMemory = (): Promise<PaginationMemoryResult> =>
  runInChild<PaginationMemoryResult>(import.meta.url, ['--expose-gc']);

if (process.argv.includes(CHILD_FLAG)) console.log(JSON.stringify(await measureMemory()));
