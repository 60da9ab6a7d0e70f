/**
 * The spec's pre-check exactly as its table states it, for one request at a time: the oracle the
 * v6 rules' tests and the bench's spec client check the SDK's concurrent policy against. The SDK
 * itself runs `preCheckRow` through `src/dialects/v6/policy.ts`.
 */
import { exhaustedSleepMs, preCheckRow, type BucketRecord, type PreCheckRow } from '../../src/dialects/v6/rules.ts';

export interface PreCheckResult {
  readonly row: PreCheckRow;
  /** The bucket after the row's effect (a new object; the argument is not changed). */
  readonly bucket: BucketRecord;
  /** Milliseconds to sleep before the request proceeds (0 for rows that do not sleep). */
  readonly sleepMs: number;
}

/** The pre-check exactly as the spec's table states it, for one request at a time. */
export function preCheck(bucket: Readonly<BucketRecord>, nowSeconds: number): PreCheckResult {
  const row = preCheckRow(bucket, nowSeconds);
  switch (row) {
    case 'limit-is-zero':
      return { row, bucket: { ...bucket }, sleepMs: 0 };
    case 'reset-passed':
      return { row, bucket: { ...bucket, remaining: bucket.limit }, sleepMs: 0 };
    case 'remaining-is-zero':
      return { row, bucket: { ...bucket }, sleepMs: exhaustedSleepMs(bucket.reset, nowSeconds) };
    case 'remaining-not-zero':
      return { row, bucket: { ...bucket, remaining: bucket.remaining - 1 }, sleepMs: 0 };
  }
}
