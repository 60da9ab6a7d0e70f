/**
 * A shared store's view with a local fallback (src/stores/fallback-view.ts), over views that
 * record what reaches them: what goes to the local view, and what does not. Against Redis and a
 * Durable Object down: fallback-view.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { BucketRef, StoreView } from '../../src/contracts/store.ts';
import { StoreUnavailableError } from '../../src/errors.ts';
import { FallbackView } from '../../src/stores/fallback-view.ts';

const BUCKET: BucketRef = { bucketKey: 'channels/1' };

/** A view of the least a store view must have, answering `name` for every call, and counting its closes. */
function viewNamed(name: string, failure?: Error) {
  const answer = () => {
    if (failure) throw failure;
    return name as never;
  };
  const view = {
    closed: 0,
    admit: answer,
    settle: answer,
    release: answer,
    giveBack: answer,
    lockGlobal: answer,
    get: answer,
    subscribe: () => () => {},
    close: async () => {
      view.closed += 1;
    },
  } satisfies StoreView & { closed: number };
  return view;
}

describe('FallbackView', () => {
  it('asks the local view only while the shared store cannot be reached', async () => {
    const up = new FallbackView(viewNamed('remote'), viewNamed('local'));
    expect(await up.admit(BUCKET)).toBe('remote');
    const down = new FallbackView(
      viewNamed('remote', new StoreUnavailableError('redis', new Error('down'))),
      viewNamed('local'),
    );
    expect(await down.admit(BUCKET)).toBe('local');
  });

  it('passes any other error on, and never decides it locally', async () => {
    const broken = new FallbackView(viewNamed('remote', new RangeError('a bug in the script')), viewNamed('local'));
    await expect(broken.admit(BUCKET)).rejects.toThrow(RangeError);
    await expect(broken.get(BUCKET)).rejects.toThrow('a bug in the script');
  });

  it('answers the optional methods neither view has as a view without them would: nothing, {} and 0', async () => {
    const view = new FallbackView(viewNamed('remote'), viewNamed('local'));
    await expect(view.markSleptPast(BUCKET, 1)).resolves.toBeUndefined();
    await expect(view.noteInvalid()).resolves.toEqual({});
    await expect(view.invalidRequests()).resolves.toBe(0);
  });

  it('closes both views', async () => {
    const [remote, local] = [viewNamed('remote'), viewNamed('local')];
    await new FallbackView(remote, local).close();
    expect([remote.closed, local.closed]).toEqual([1, 1]);
  });
});
