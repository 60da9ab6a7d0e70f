/**
 * V16 with the catalog's `refusedTokens`: v10's targets name the kinds of token a call's route
 * turns away, from the catalog they were made with. The table is worked out once per catalog and
 * shared by every client on it; a client on another catalog (or on none) reads its own.
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../../generated/index.ts';
import type { OperationDefinition } from '../../../src/contracts/catalog.ts';
import { v10 } from '../../../src/dialects/v10/index.ts';
import { ID_EPOCH_MS } from '../../../src/dialects/v10/route.ts';

const NOW = Date.UTC(2026, 10, 28);
const CHANNEL = '81384788765712384';

/** The catalog with one operation's refused kinds replaced. */
function withRefused(name: string, refusedTokens: OperationDefinition['refusedTokens']) {
  const operation: { -readonly [Key in keyof OperationDefinition]: OperationDefinition[Key] } = {
    ...(operations[name as keyof typeof operations] as OperationDefinition),
  };
  if (refusedTokens) operation.refusedTokens = refusedTokens;
  else delete operation.refusedTokens;
  return { ...operations, [name]: operation };
}

describe('v10 targets: the kinds of token a route refuses, per catalog', () => {
  it('a typed and a raw call on a route the catalog marks read its refused kinds', () => {
    const targets = v10.targets(operations);
    const operation = operations['channels.get'] as OperationDefinition;
    expect(operation.refusedTokens).toEqual(['bearer']);
    const path = `/channels/${CHANNEL}`;
    expect(targets.targetOfOperation(operation, path, [CHANNEL], NOW).refusedTokens).toEqual(['bearer']);
    expect(targets.targetOfRequest('GET', path, NOW).refusedTokens).toEqual(['bearer']);
    expect(targets.targetOfRequest('GET', `/users/@me/guilds/${CHANNEL}/member`, NOW).refusedTokens).toEqual(['bot']);
  });

  it('two targets on one catalog agree; one on another catalog, or on none, reads its own', () => {
    const path = `/channels/${CHANNEL}`;
    const first = v10.targets(operations).targetOfRequest('GET', path, NOW);
    const second = v10.targets(operations).targetOfRequest('GET', path, NOW);
    expect(second.refusedTokens).toEqual(first.refusedTokens);

    const botsRefused = v10.targets(withRefused('channels.get', ['bot'])).targetOfRequest('GET', path, NOW);
    expect(botsRefused.refusedTokens).toEqual(['bot']);
    const noneRefused = v10.targets(withRefused('channels.get', undefined)).targetOfRequest('GET', path, NOW);
    expect(noneRefused.refusedTokens).toBeUndefined();
    expect(v10.targets(undefined).targetOfRequest('GET', path, NOW).refusedTokens).toBeUndefined();

    // The first catalog's table is as it was after the others were read.
    expect(v10.targets(operations).targetOfRequest('GET', path, NOW).refusedTokens).toEqual(['bearer']);
  });
});

describe('v10 targets: refused kinds on routes whose parameters are not all ids', () => {
  /** An id made `ageMs` before NOW. */
  const idAged = (ageMs: number) => String(BigInt(NOW - ageMs - ID_EPOCH_MS) << 22n);

  it("V20: a message delete reads its route's refused kinds whatever the message's age class", () => {
    const targets = v10.targets(operations);
    const routes = new Set<string | undefined>();
    for (const ageMs of [1_000, 24 * 60 * 60 * 1000, 30 * 24 * 60 * 60 * 1000]) {
      const target = targets.targetOfRequest('DELETE', `/channels/${CHANNEL}/messages/${idAged(ageMs)}`, NOW);
      routes.add(target.route);
      expect(target.refusedTokens, `age ${ageMs} ms`).toEqual(['bearer']);
    }
    // Three age classes, three routes (under 10 s, up to 14 days, older).
    expect(routes.size).toBe(3);
  });

  it("a code, an emoji or a platform in the path: the route the catalog marks, not an id's", () => {
    const targets = v10.targets(operations);
    const emoji = encodeURIComponent('🔥');
    expect(
      targets.targetOfRequest('PUT', `/channels/${CHANNEL}/messages/${CHANNEL}/reactions/${emoji}/@me`, NOW)
        .refusedTokens,
    ).toEqual(['bearer']);
    expect(targets.targetOfRequest('DELETE', '/invites/tollgate', NOW).refusedTokens).toEqual(['bearer']);
    expect(targets.targetOfRequest('GET', '/invites/tollgate', NOW).refusedTokens).toBeUndefined();
    expect(
      targets.targetOfRequest('GET', `/applications/${CHANNEL}/activity-instances/i-1234-abc`, NOW).refusedTokens,
    ).toEqual(['bearer']);
  });
});
