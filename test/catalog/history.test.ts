/**
 * The fixture of Discord's published builds (scripts/sync/history.ts) as the replay reads it:
 * the manifest's kept builds, oldest first, each the file it was, byte for byte.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readHistory, readManifest } from '../../scripts/sync/history.ts';

/** Git's id of a file's contents: what `git rev-parse <commit>:<path>` prints. */
const gitBlobId = (text: string): string => {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

// Read by each test, not once as the file loads: a mutation run counts what each test reaches.
const fixture = () => Promise.all([readHistory(), readManifest()]);

describe('the history of the OpenAPI document, as the replay reads it', () => {
  it('yields exactly the builds the manifest keeps, in its order, oldest first', async () => {
    const [builds, manifest] = await fixture();
    const kept = manifest.filter((build) => build.selected);
    expect(kept.length).toBeGreaterThan(1);
    expect(builds.map(({ build, commit, date }) => ({ build, commit, date }))).toEqual(
      kept.map(({ build, commit, date }) => ({ build, commit, date })),
    );
    const dates = builds.map((build) => build.date);
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
  });

  it("each build's text is its published file byte for byte (the manifest's git blob id), and its document that text parsed", async () => {
    const [builds, manifest] = await fixture();
    const blobs = new Map(manifest.map((build) => [build.commit, build.blob]));
    for (const build of builds) {
      const text = build.text();
      expect(gitBlobId(text), build.build).toBe(blobs.get(build.commit));
      expect(build.document, build.build).toEqual(JSON.parse(text));
    }
  });
});
