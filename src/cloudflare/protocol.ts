/**
 * What a token's Durable Object and the Workers that call it say to each other: one call per
 * store-view method, and answers made of data only (RPC copies values with structured clone,
 * which keeps an Error's message but not its class, nor a clock's origin).
 *
 * - A refusal travels as its facts (`Refusal`) and becomes the same error class again.
 * - A reservation travels with its lease (the object gives a lost caller's place back when the
 *   lease runs out) and, once answered, with the answer's age instead of an instant on the
 *   caller's clock (each isolate's monotonic clock has its own origin).
 */
import type { Admission, BucketRef, BucketSnapshot, Reservation, SettleResult } from '../contracts/store.ts';
import type { RefusalCodec, RefusalFacts } from '../contracts/dialect.ts';

/** A reservation as it crosses: `lease` names it in the object; `answerAgeMs` replaces `answeredAt`. */
export interface WireReservation extends Omit<Reservation, 'answeredAt'> {
  readonly lease?: string;
  readonly answerAgeMs?: number;
}

/** One store-view method called on the token's object: the dialect (`DIALECTS`' key) and its settings, then the method's own arguments. */
export type LimitsCall = { readonly api: string; readonly settings: unknown } & (
  | { readonly method: 'admit'; readonly bucket: BucketRef | null; readonly leaseMs: number }
  | { readonly method: 'markSleptPast'; readonly bucket: BucketRef; readonly reset: number }
  | {
      readonly method: 'settle';
      readonly bucket: BucketRef;
      readonly reservation: WireReservation;
      readonly update: unknown;
    }
  | { readonly method: 'release' | 'giveBack'; readonly bucket: BucketRef; readonly reservation: WireReservation }
  | { readonly method: 'lockGlobal'; readonly ms: number }
  | { readonly method: 'noteInvalid' | 'invalidRequests' }
  | { readonly method: 'get'; readonly bucket: BucketRef }
);

export type LimitsMethod = LimitsCall['method'];

/**
 * A refusal's facts: one of its dialect's refusals, by class name with what that class needs (the
 * dialect's `refusals`), or any other error a view refused with, by its message.
 */
export type Refusal = RefusalFacts | { readonly name: 'Error'; readonly message: string };

export type WireAdmission =
  | Exclude<Admission, { kind: 'refuse' | 'grant' }>
  | { readonly kind: 'grant'; readonly reservation: WireReservation }
  | { readonly kind: 'refuse'; readonly refusal: Refusal };

/** What each method answers. */
export interface LimitsAnswers {
  readonly admit: WireAdmission;
  readonly markSleptPast: undefined;
  readonly settle: SettleResult | undefined;
  readonly release: undefined;
  readonly giveBack: undefined;
  readonly lockGlobal: undefined;
  readonly noteInvalid: SettleResult;
  readonly invalidRequests: number;
  readonly get: BucketSnapshot | undefined;
}

/** The RPC method of the object (`TollgateLimits`) that every call goes through. */
export const LIMITS_RPC_METHOD = 'decide';

/** `error` as facts to copy, by the dialect's own codec where it is one of its refusals. */
export function refusalOf(error: Error, refusals: RefusalCodec | undefined): Refusal {
  return refusals?.factsOf(error) ?? { name: 'Error', message: error.message };
}

/** The error again from its facts: the dialect's own class, or a plain Error with its message. */
export function errorOf(refusal: Refusal, refusals: RefusalCodec | undefined): Error {
  return refusals?.errorOf(refusal) ?? new Error(String(refusal.message ?? refusal.name));
}
