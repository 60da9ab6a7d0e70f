/**
 * A typed operation's v10 route, planned once from its path pattern, is the route `classifyV10`
 * reads from the call's path (V4, V13, V19, V20): for every operation of the catalog, any ids,
 * any code, emoji or secret values (those that look like ids or route words too), at any time.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../generated/index.ts';
import { v10 } from '../../../src/dialects/v10/index.ts';

/** v10's targets, on the catalog's operations (it reads who may call each route). */
const v10Targets = v10.targets(operations);
import { classifyV10, ID_EPOCH_MS, v10BucketFinder } from '../../../src/dialects/v10/route.ts';
import { buildPath } from '../../../src/paths/path.ts';
import type { OperationDefinition } from '../../../src/contracts/catalog.ts';
import { runs } from '../../support/property-runs.ts';

const OPERATIONS: readonly OperationDefinition[] = Object.values(operations);
const NOW = Date.UTC(2026, 10, 25);

/** Ids of any age: the message-delete routes class them as new, middle-aged or old (V20). */
const id = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
  fc.integer({ min: 0, max: 30 * 24 * 3600 * 1000 }).map((ageMs) => String(BigInt(NOW - ageMs - ID_EPOCH_MS) << 22n)),
  fc.constantFrom('0', '1', '007'),
);
/** Code, emoji and secret values, among them the ones that would change a template where they stand. */
const text = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
  fc.constantFrom('reactions', 'invites', 'templates', 'activity-instances', 'identities'),
  fc.constantFrom('application-identities', 'delete', '12345', '@me', '🔥', 'name:123', 'a b'),
);

describe('v10 route plans', () => {
  it('every operation has a plan but the two whose route holds a value (V4)', () => {
    const unplanned = OPERATIONS.filter((operation) => !v10BucketFinder(operation.method, operation.path));
    expect(unplanned.map((operation) => operation.name).sort()).toEqual([
      'channels.threads.archived.list', // GET /channels/:id/threads/archived/{public|private}
      'webhooks.platform.execute', // POST /webhooks/:id/:token/{slack|github}
    ]);
  });

  it('a planned call keys the bucket its path classifies to, for any values and time', () => {
    const call = fc
      .constantFrom(...OPERATIONS)
      .chain((operation) =>
        fc.tuple(
          fc.constant(operation),
          fc.tuple(
            ...operation.path
              .filter((segment) => typeof segment !== 'string')
              .map((p) => (p.kind === 'snowflake' ? id : text)),
          ),
          fc.integer({ min: NOW - 1000, max: NOW + 1000 }),
        ),
      );
    fc.assert(
      fc.property(call, ([operation, args, nowMs]) => {
        const { path, values } = buildPath(operation.path, args);
        const target = v10Targets.targetOfOperation(operation, path, values, nowMs);
        expect(target.bucket).toEqual(classifyV10(operation.method, path, nowMs));
        expect(target).toEqual({
          ...v10Targets.targetOfRequest(operation.method, path, nowMs),
          routeKey: operation.routeKey,
        });
      }),
      runs(3000),
    );
  });

  it('a value that would change the template sends the call to classifyV10', () => {
    const remove = operations['channels.messages.reactions.deleteOwn'];
    const plan = v10BucketFinder(remove.method, remove.path)!;
    expect(plan.bucketOf(['1', '2', '%F0%9F%94%A5'], NOW)?.route).toBe(
      'DELETE /channels/:id/messages/:id/reactions/:reaction/@me',
    );
    // An emoji value that reads as an id is `:id` where it stands, as the path reads.
    expect(plan.bucketOf(['1', '2', '12345'], NOW)).toBeUndefined();
    const { path, values } = buildPath(remove.path, ['1', '2', '12345']);
    expect(v10Targets.targetOfOperation(remove, path, values, NOW).route).toBe(
      'DELETE /channels/:id/messages/:id/reactions/:id/@me',
    );
  });
});
