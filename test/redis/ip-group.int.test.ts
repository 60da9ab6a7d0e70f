/**
 * Where v10 state lives on every deployment (single node, Sentinel, Cluster): each token's keys
 * in its own slot, the invalid-request guard (V15) and the token-less budget (V13) the egress IP
 * group's (`ipGroup`), across tokens and processes; each decision one round trip, two only when
 * the guard refuses a place already granted, which is given back. On the Cluster, tokens spread
 * over the masters (the shares are logged, `[shards]` lines: shown when a test fails, or with
 * TOLLGATE_TEST_LOG=1).
 */
import { describe, expect, it } from 'vitest';
import type { V10Settings } from '../../src/dialects/v10/settings.ts';
import { tokenHash } from '../../src/redis/keys.ts';
import { ManualClock } from '../support/manual-clock.ts';
import { redisDeploymentsForFile, scanKeys } from '../support/redis-deployments.ts';
import { testLog } from '../support/test-log.ts';
import { keyedView } from '../support/keyed-view.ts';

const deployments = redisDeploymentsForFile();
/** The `[shards]` lines: shown when a test fails, or with TOLLGATE_TEST_LOG=1. */
const log = testLog();
const SETTINGS: V10Settings = { globalLimit: 1, resetMarginMs: 50, globalMarginMs: 50, invalidRequestLimit: 2 };
const ROUTE = 'GET /channels/:id channels/1';
const OTHER_ROUTE = 'GET /channels/:id channels/2';

describe.each(deployments.map((deployment) => [deployment.kind, deployment] as const))(
  'the egress IP group on %s',
  (_, deployment) => {
    /** Three processes on one prefix: two behind one egress IP (the default group), one behind another. */
    const processes = async () => {
      const first = await deployment.store('ip-group', { time: 'client' });
      const options = { prefix: first.prefix, time: 'client' } as const;
      const second = await deployment.store('ip-group', options);
      const elsewhere = await deployment.store('ip-group', { ...options, ipGroup: 'host-b.example' });
      return { first, second, elsewhere, clock: new ManualClock() };
    };

    it('V15: the guard holds across the tokens and processes of a group, and no further', async () => {
      const { first, second, elsewhere, clock } = await processes();
      const one = keyedView(first, 'Bot one', clock, SETTINGS);
      await one.noteInvalid!();
      expect(await one.noteInvalid!()).toEqual({ invalidRequests: 2 });
      expect(await keyedView(second, 'Bot two', clock, SETTINGS).admit(ROUTE)).toMatchObject({
        kind: 'refuse',
        error: { name: 'InvalidRequestGuardError', count: 2, limit: 2 },
      });
      const away = keyedView(elsewhere, 'Bot one', clock, SETTINGS);
      expect(await away.invalidRequests!()).toBe(0);
      expect((await away.admit(ROUTE)).kind).toBe('grant');
    });

    it('a decision is one round trip; a grant the guard refuses, two: its place is given back', async () => {
      const { first, second, elsewhere, clock } = await processes();
      const view = keyedView(second, 'Bot trips', clock, SETTINGS);
      await view.invalidRequests!(); // connected
      let before = second.roundTrips;
      expect((await view.admit(ROUTE)).kind).toBe('grant');
      expect(second.roundTrips - before, 'an admission beside the guard').toBe(1);
      const noted = keyedView(first, 'Bot noted', clock, SETTINGS);
      await noted.noteInvalid!();
      const answered = await noted.admit(ROUTE);
      if (answered.kind !== 'grant') throw new Error(`expected a grant, got ${answered.kind}`);
      before = first.roundTrips;
      expect(await noted.settle(ROUTE, answered.reservation, { limit: 5, remaining: 0, invalid: true })).toEqual({
        invalidRequests: 2,
      });
      expect(first.roundTrips - before, 'a settle beside its invalid-request note').toBe(1);
      // The group is at its guard: a fresh token's pace grants, the guard refuses, the place goes back.
      const refused = keyedView(second, 'Bot refused', clock, SETTINGS);
      before = second.roundTrips;
      expect((await refused.admit(ROUTE)).kind).toBe('refuse');
      expect(second.roundTrips - before, 'the admission and the give-back').toBe(2);
      // Its pace (one a second) is whole: the same token behind another IP is granted at once.
      const sameToken = keyedView(elsewhere, 'Bot refused', clock, SETTINGS);
      expect((await sameToken.admit(ROUTE)).kind).toBe('grant');
      expect(await sameToken.admit(OTHER_ROUTE)).toMatchObject({ kind: 'global', pace: true });
    });

    it('V13: calls without a token share one budget per group', async () => {
      const { first, second, elsewhere, clock } = await processes();
      expect((await keyedView(first, undefined, clock, SETTINGS).admit(ROUTE)).kind).toBe('grant');
      expect(await keyedView(second, undefined, clock, SETTINGS).admit(OTHER_ROUTE)).toMatchObject({
        kind: 'global',
        pace: true,
      });
      expect((await keyedView(elsewhere, undefined, clock, SETTINGS).admit(OTHER_ROUTE)).kind).toBe('grant');
    });
  },
);

describe('the Cluster', () => {
  const cluster = deployments[2];

  it('30 tokens spread over the 3 masters: each token in one slot, no master with more than half the keys', async () => {
    const store = await cluster.store('shards', { time: 'client' });
    const clock = new ManualClock();
    const tokens = Array.from({ length: 30 }, (_, i) => `Bot shard-${i}`);
    const settings = { ...SETTINGS, globalLimit: 50, invalidRequestLimit: 100 };
    for (const token of tokens) {
      const view = keyedView(store, token, clock, settings);
      for (const route of [ROUTE, OTHER_ROUTE]) {
        const admission = await view.admit(route);
        if (admission.kind !== 'grant') throw new Error(`expected a grant, got ${admission.kind}`);
        await view.settle(route, admission.reservation, { limit: 5, remaining: 4, windowLeftMs: 5000, hash: 'h' });
      }
      await view.lockGlobal(1000);
    }
    await keyedView(store, tokens[0], clock, settings).noteInvalid!();

    const client = cluster.cluster!.client({ lazyConnect: true });
    try {
      await client.connect();
      const masters = client.nodes('master');
      const keysByMaster = await Promise.all(masters.map((node) => scanKeys(node, `${store.prefix}:*`)));
      const total = keysByMaster.reduce((sum, keys) => sum + keys.length, 0);
      const shares = keysByMaster.map((keys) => keys.length / total);
      log(
        `[shards] ${tokens.length} tokens, ${total} keys over ${masters.length} masters: ` +
          keysByMaster.map((keys, i) => `${keys.length} (${(shares[i]! * 100).toFixed(1)}%)`).join(', '),
      );
      expect(masters).toHaveLength(3);
      for (const share of shares) expect(share).toBeLessThanOrEqual(0.5);
      for (const token of tokens) {
        const tag = `{${tokenHash(token)}}`;
        const holders = keysByMaster.filter((keys) => keys.some((key) => key.includes(tag)));
        expect(holders, `the keys of ${token}`).toHaveLength(1);
      }
      expect(keysByMaster.flat().filter((key) => key.includes('{ip:default}'))).toEqual([
        `${store.prefix}:{ip:default}:v10:invalid`,
      ]);
    } finally {
      client.disconnect();
    }
  });
});
