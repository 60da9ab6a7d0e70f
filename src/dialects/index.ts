/**
 * The dialects a client can speak, by API version: looked up once per client. Adding a dialect is
 * a folder beside these, a row here, rows in `options.ts` (its options, their shapes and its
 * events, if it has any) and, for Redis, a row of its views in src/redis/store.ts: nothing in
 * src/http/.
 */
import type { Dialect } from '../contracts/dialect.ts';
import type { BucketRef } from '../contracts/store.ts';
import { v10 } from './v10/index.ts';
import { v6 } from './v6/index.ts';

// Each row keeps its own bucket and options types; the client reads every dialect's options.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row's options type is its own
export const DIALECTS = { v10, v6 } as const satisfies Record<string, Dialect<BucketRef, any, any, any>>;

/** An API version tollgate speaks, and so the rate-limit rules it follows: `'v10'` (Discord today) or `'v6'` (the seed's rules). */
export type ApiVersion = keyof typeof DIALECTS;

/** The API versions, in the order `DIALECTS` lists them. */
export const API_VERSIONS = Object.keys(DIALECTS) as ApiVersion[];

/** V1: the dialect a base URL's version names (`/api` alone is v6), or undefined when it names none. */
export function apiOfBaseUrl(baseUrl: string): ApiVersion | undefined {
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const version = /\/v(\d+)$/.exec(path)?.[1];
  if (version === undefined && !/\/api$/.test(path)) return undefined;
  return API_VERSIONS.find((api) => DIALECTS[api].speaks(version === undefined ? undefined : Number(version)));
}
