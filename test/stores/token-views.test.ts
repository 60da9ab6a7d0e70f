/**
 * A store's views, one per (dialect, token), and each client's handle on one (src/stores/token-views.ts),
 * over a view that records what reaches it: what a handle passes on, what it tells the other
 * handles, and when a view nobody uses is let go.
 */
import { describe, expect, it } from 'vitest';
import {
  SHED_INTERVAL_MS,
  type BucketRef,
  type StoreEvent,
  type StoreView,
  type ViewRequest,
} from '../../src/contracts/store.ts';
import { TokenViews } from '../../src/stores/token-views.ts';
import { ManualClock } from '../support/manual-clock.ts';

const BUCKET: BucketRef = { bucketKey: 'channels/1' };
const RESERVATION = { reservedAt: 0 } as never;
const request = (api = 'v10'): ViewRequest => ({ api, settings: {}, memoryView: () => recordingView() });

interface Recording {
  readonly listeners: Set<(event: StoreEvent) => void>;
  closed: number;
  isIdle: boolean;
}

/** A view whose calls answer at once (or when `settled` resolves), recording its listeners and closes. */
function recordingView(options: { idle?: boolean; settled?: Promise<void> } = {}): StoreView & Recording {
  const view: StoreView & Recording = {
    listeners: new Set(),
    closed: 0,
    isIdle: options.idle ?? true,
    admit: () => ({ kind: 'go' }) as never,
    settle: () => (options.settled ? options.settled.then(() => undefined) : undefined),
    release: () => undefined,
    giveBack: () => undefined,
    lockGlobal: () => undefined,
    get: () => undefined,
    subscribe: (listener) => {
      view.listeners.add(listener);
      return () => view.listeners.delete(listener);
    },
    idle: () => view.isIdle,
    close: async () => {
      view.closed += 1;
    },
  };
  return view;
}

/** Two clients' handles on one view, and what each of their listeners was told. */
function twoHandles(views: TokenViews, made = recordingView(), clock = new ManualClock(0)) {
  const first = views.of(request(), 'Bot a', clock, () => made);
  const second = views.of(request(), 'Bot a', clock, () => recordingView());
  const told = { first: [] as StoreEvent[], second: [] as StoreEvent[] };
  first.subscribe((event) => told.first.push(event));
  second.subscribe((event) => told.second.push(event));
  return { made, first, second, told, clock };
}

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('TokenViews: the changes one handle makes, told to the others', () => {
  it('tells no one unless asked to (announceChanges is off by default)', async () => {
    const { first, told } = twoHandles(new TokenViews());
    await first.settle(BUCKET, RESERVATION, {});
    await first.lockGlobal(5);
    await turn();
    expect(told).toEqual({ first: [], second: [] });
  });

  it("tells the other handles a bucket's change and a global lock, never the handle that made them", async () => {
    const { first, second, told } = twoHandles(new TokenViews({ announceChanges: true }));
    await first.settle(BUCKET, RESERVATION, {});
    await second.release(BUCKET, RESERVATION);
    await first.lockGlobal(5);
    await turn();
    expect(told.second).toEqual([
      { kind: 'bucket', bucketKey: 'channels/1' },
      { kind: 'global', ms: 5 },
    ]);
    expect(told.first).toEqual([{ kind: 'bucket', bucketKey: 'channels/1' }]);
  });

  it('a global lock of no time holds no one, so it is told to no one', async () => {
    const { first, told } = twoHandles(new TokenViews({ announceChanges: true }));
    await first.lockGlobal(0);
    await turn();
    expect(told.second).toEqual([]);
  });

  it('tells a change only once the view has made it (a settle that answers later)', async () => {
    let finish = () => {};
    const settled = new Promise<void>((resolve) => (finish = resolve));
    const { first, told } = twoHandles(new TokenViews({ announceChanges: true }), recordingView({ settled }));
    const settling = first.settle(BUCKET, RESERVATION, {});
    await turn();
    expect(told.second).toEqual([]);
    finish();
    await settling;
    await turn();
    expect(told.second).toEqual([{ kind: 'bucket', bucketKey: 'channels/1' }]);
  });

  it('a listener unsubscribed hears nothing more, from the view or from the other handles', async () => {
    const views = new TokenViews({ announceChanges: true });
    const clock = new ManualClock(0);
    const made = recordingView();
    const first = views.of(request(), 'Bot a', clock, () => made);
    const second = views.of(request(), 'Bot a', clock, () => recordingView());
    const heard: StoreEvent[] = [];
    const unsubscribe = second.subscribe((event) => heard.push(event));
    expect(made.listeners.size).toBe(1);
    unsubscribe();
    expect(made.listeners.size).toBe(0);
    await first.settle(BUCKET, RESERVATION, {});
    await turn();
    expect(heard).toEqual([]);
  });
});

describe('TokenViews: each handle passes the view on', () => {
  it('answers idle as the view does, and has none where the view has none', () => {
    const views = new TokenViews();
    const clock = new ManualClock(0);
    const made = recordingView({ idle: false });
    const handle = views.of(request(), 'Bot a', clock, () => made);
    expect(handle.idle?.(0)).toBe(false);
    made.isIdle = true;
    expect(handle.idle?.(0)).toBe(true);
    const withoutIdle: StoreView = { ...recordingView(), idle: undefined };
    const other = views.of(request(), 'Bot b', clock, () => withoutIdle);
    expect(other.idle).toBeUndefined();
  });
});

describe('TokenViews: a view nobody uses, let go once idle', () => {
  it('is kept while any handle is open, however often another is closed', async () => {
    const views = new TokenViews();
    const { first, made, clock } = twoHandles(views);
    await first.close();
    await first.close();
    clock.set(clock.now() + SHED_INTERVAL_MS);
    views.of(request(), 'Bot b', clock, () => recordingView());
    expect(made.closed).toBe(0);
    expect(views.of(request(), 'Bot a', clock, () => recordingView())).toBeDefined();
    expect([...views.values()]).toContain(made);
  });

  it('is looked for at most once a shedding interval, then closed and dropped', async () => {
    const views = new TokenViews();
    const clock = new ManualClock(0);
    const made = recordingView();
    views.of(request(), 'Bot other', clock, () => recordingView()); // the first sweep, at 0
    await views.of(request(), 'Bot a', clock, () => made).close();
    clock.set(clock.now() + SHED_INTERVAL_MS - 1);
    views.of(request(), 'Bot b', clock, () => recordingView());
    expect([made.closed, [...views.values()].includes(made)]).toEqual([0, true]);
    clock.set(clock.now() + 1);
    views.of(request(), 'Bot c', clock, () => recordingView());
    expect([made.closed, [...views.values()].includes(made)]).toEqual([1, false]);
  });

  it('is kept while it still holds something a later request needs', async () => {
    const views = new TokenViews();
    const clock = new ManualClock(0);
    const made = recordingView({ idle: false });
    await views.of(request(), 'Bot a', clock, () => made).close();
    clock.set(clock.now() + SHED_INTERVAL_MS);
    views.of(request(), 'Bot b', clock, () => recordingView());
    expect([made.closed, views.size]).toEqual([0, 2]);
  });

  it('one view per dialect and token: the IP and each token apart, each dialect apart', () => {
    const views = new TokenViews();
    const clock = new ManualClock(0);
    for (const api of ['v10', 'v6']) {
      for (const token of [undefined, 'Bot a', 'Bot b']) views.of(request(api), token, clock, () => recordingView());
    }
    expect(views.size).toBe(6);
    views.of(request('v6'), 'Bot a', clock, () => recordingView());
    expect(views.size).toBe(6);
  });
});
