/**
 * The generated iterators against the reference service, one shape at a time: id cursors on a
 * plain array (newest-first and oldest-first), an id cursor inside a wrapper (the audit log),
 * timestamp cursors with has_more (pins, archived threads), offsets (search, with its 202 "try
 * later"), and what goes wrong: a bad cursor, a failing page, the signal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, HttpError, TollgateArgumentError, type TollgateClient } from '../../src/index.ts';
import { ReferenceService } from '../../src/testing/index.ts';
import type { APIThreadChannel } from 'discord-api-types/v10';

const CHANNEL = '81384788765712384';
const GUILD = '41771983423143937';

let service: ReferenceService;
let client: TollgateClient;

beforeAll(async () => {
  service = await new ReferenceService({ api: 'v10' }).start();
  client = createClient({ baseUrl: service.baseUrl, token: 'Bot reference' });
});
afterAll(async () => {
  await client.close();
  await service.stop();
});

/** The requests of one route from here on, with their query. */
function requestsOf(route: string) {
  const from = service.requests.length;
  return () => service.requests.slice(from).filter((request) => request.routeKey === route);
}

const collect = async <T>(iterable: AsyncIterable<T>, stopAfter = Infinity): Promise<T[]> => {
  const items: T[] = [];
  for await (const item of iterable) {
    items.push(item);
    if (items.length >= stopAfter) break;
  }
  return items;
};

describe('id cursors on a plain array: channel messages', () => {
  const ids: string[] = [];
  beforeAll(() => {
    service.lists.seed('channels.messages.list', { channel_id: CHANNEL }, 250);
  });

  it('no cursor: newest-first, 100 a page, every message once; 250 messages in 3 requests', async () => {
    const requests = requestsOf('GET /channels/:id/messages');
    const messages = await collect(client.channels.messages.listAll(CHANNEL));
    ids.push(...messages.map((message) => message.id));
    expect(messages).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    expect([...ids].sort((a, b) => Number(BigInt(b) - BigInt(a)))).toEqual(ids);
    expect(requests()).toHaveLength(3);
    expect(messages[0]).toMatchObject({ channel_id: CHANNEL, content: expect.any(String) });
  });

  it('after: oldest-first from the cursor; max caps the items and the last page asks for what is left', async () => {
    const oldest = ids.at(-1)!;
    const requests = requestsOf('GET /channels/:id/messages');
    const messages = await collect(client.channels.messages.listAll(CHANNEL, { after: oldest, max: 120 }));
    expect(messages.map((message) => message.id)).toEqual([...ids].reverse().slice(1, 121));
    expect(requests()).toHaveLength(2);
  });

  it('before: newest-first below the cursor; leaving the loop fetches nothing more', async () => {
    const requests = requestsOf('GET /channels/:id/messages');
    const messages = await collect(client.channels.messages.listAll(CHANNEL, { before: ids[9]! }), 101);
    expect(messages.map((message) => message.id)).toEqual(ids.slice(10, 111));
    expect(requests()).toHaveLength(2);
  });

  it('pages(): the raw pages, for code that needs the result itself', async () => {
    const pages = await collect(client.channels.messages.listPages(CHANNEL, { max: 150 }));
    expect(pages.map((page) => page.length)).toEqual([100, 50]);
  });

  it('misuse is refused before anything is sent', async () => {
    const requests = requestsOf('GET /channels/:id/messages');
    const both = { before: ids[0]!, after: ids[1]! } as never;
    await expect(collect(client.channels.messages.listAll(CHANNEL, both))).rejects.toThrow(TollgateArgumentError);
    await expect(collect(client.channels.messages.listAll(CHANNEL, { limit: 5 } as never))).rejects.toThrow(
      /cap the items with `max`/,
    );
    await expect(collect(client.channels.messages.listAll(CHANNEL, { around: ids[0] } as never))).rejects.toThrow(
      /around/,
    );
    await expect(collect(client.channels.messages.listAll(CHANNEL, { max: -1 }))).rejects.toThrow(
      /max must be a whole number/,
    );
    expect(requests()).toHaveLength(0);
  });

  it("a bad cursor: the page fails with the service's 400, and the iteration rejects with it", async () => {
    const error = await collect(client.channels.messages.listAll(CHANNEL, { before: 'yesterday' })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, error: { code: 50035 } });
  });

  it('the signal ends the walk with its reason', async () => {
    const controller = new AbortController();
    const walked: string[] = [];
    const walk = (async () => {
      for await (const message of client.channels.messages.listAll(CHANNEL, {}, { signal: controller.signal })) {
        walked.push(message.id);
        if (walked.length === 100) controller.abort(new Error('enough'));
      }
    })();
    await expect(walk).rejects.toThrow('enough');
    expect(walked).toHaveLength(100);
  });
});

describe('id cursors, oldest-first: guild members', () => {
  it('after only, 1000 a page, the cursor from user.id', async () => {
    service.lists.seed('guilds.members.list', { guild_id: GUILD }, 2500);
    const requests = requestsOf('GET /guilds/:id/members');
    const members = await collect(client.guilds.members.listAll(GUILD));
    const userIds = members.map((member) => member.user.id);
    expect(members).toHaveLength(2500);
    expect([...userIds].sort((a, b) => Number(BigInt(a) - BigInt(b)))).toEqual(userIds);
    expect(requests()).toHaveLength(3);
  });
});

describe('an id cursor inside a wrapper: the audit log', () => {
  it("yields the entries; pages() keeps the wrapper's other members", async () => {
    service.lists.seed('guilds.auditLogs.get', { guild_id: GUILD }, 230);
    const entries = await collect(client.guilds.auditLogs.getAll(GUILD));
    expect(entries).toHaveLength(230);
    const [page] = await collect(client.guilds.auditLogs.getPages(GUILD, { max: 10 }));
    expect(page!.audit_log_entries).toHaveLength(10);
    expect(page).toHaveProperty('users');
  });
});

describe('timestamp cursors with has_more', () => {
  it("pins: before is the last pin's pinned_at, 50 a page, until has_more is false", async () => {
    service.lists.seed('channels.messages.pins.list', { channel_id: CHANNEL }, 120);
    const requests = requestsOf('GET /channels/:id/messages/pins');
    const pins = await collect(client.channels.messages.pins.listAll(CHANNEL));
    expect(pins).toHaveLength(120);
    const times = pins.map((pin) => Date.parse(pin.pinned_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(requests()).toHaveLength(3);
  });

  it('public archived threads: before from thread_metadata.archive_timestamp', async () => {
    service.lists.seed('channels.threads.archived.public.list', { channel_id: CHANNEL }, 150);
    const threads = await collect(client.channels.threads.archived.public.listAll(CHANNEL));
    expect(threads).toHaveLength(150);
    expect(new Set(threads.map((thread) => (thread as APIThreadChannel).thread_metadata?.archive_timestamp)).size).toBe(
      150,
    );
  });
});

describe('offsets: guild message search', () => {
  it('25 a page by offset; a 202 "try later" is waited out, not an error', async () => {
    service.lists.seed('guilds.messages.search', { guild_id: GUILD }, 60, {
      tryLaterAnswers: 2,
      retryAfterSeconds: 0.01,
    });
    const requests = requestsOf('GET /guilds/:id/messages/search');
    const messages = await collect(client.guilds.messages.searchAll(GUILD, { content: 'hello' }));
    expect(messages).toHaveLength(60);
    expect(new Set(messages.map((message) => message.id)).size).toBe(60);
    expect(requests()).toHaveLength(2 + 3);
  });
});
