/**
 * Discord's own published builds, replayed through catalog:sync on a copy of the catalog
 * (scripts/sync/replay.ts): two windows of its history, each entered from today's catalog with
 * removals allowed, then walked forward one build at a time. At every step the SDK must compile,
 * and every call that compiled a step before must still compile unless the sync's report names
 * the method breaking. `npm run catalog:replay` walks the whole history (CI runs it).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readHistory } from '../../scripts/sync/history.ts';
import { replay, type ReplayStep } from '../../scripts/sync/replay.ts';

const root = join(import.meta.dirname, '..', '..');
const history = await readHistory();
const window = (from: string, to: string) =>
  history.slice(
    history.findIndex((build) => build.build === from),
    history.findIndex((build) => build.build === to) + 1,
  );
const clean = (steps: readonly ReplayStep[]) =>
  steps.map(({ build, code, diagnostics, unreported }) => ({ build, code, diagnostics, unreported }));

describe('replaying Discord’s published builds', () => {
  it('2024-08, an operationId moving between two paths and back: each move keeps the old method, renamed', async () => {
    const steps = await replay(window('65135', '65795'), { root });
    expect(clean(steps)).toEqual(
      ['65135', '65409', '65795'].map((build) => ({ build, code: 0, diagnostics: [], unreported: [] })),
    );
    // 65409 has applications_get_activity_instance at /activity-instance/{…}, 65795 back at /activity-instances/{…}.
    expect(steps[1]!.surface).toMatchObject({ added: 1, renamed: 1 });
    expect(steps[2]!.surface).toMatchObject({ added: 0, renamed: 1 });
  }, 120_000);

  it('2026-05 to 06: build 227040, whose drafted names once wrote one identifier twice, builds', async () => {
    const steps = await replay(window('216447', '234876'), { root });
    expect(clean(steps)).toEqual(
      ['216447', '227040', '234876'].map((build) => ({ build, code: 0, diagnostics: [], unreported: [] })),
    );
    expect(steps[1]!.surface.added).toBeGreaterThan(0);
    // The document narrowed a lobby message's poll layout to one value: reported, and nothing else.
    expect(steps[1]!.breaking).toEqual(['lobbies.messages.create']);
  }, 120_000);
});
