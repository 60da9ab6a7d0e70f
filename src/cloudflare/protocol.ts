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
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from '../dialects/v10/errors.ts';

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

/** A refusal's facts: the error it was, by class name, with what that class needs. */
export type Refusal =
  | { readonly name: 'TokenInvalidError' }
  | { readonly name: 'WebhookGoneError'; readonly resource: string }
  | {
      readonly name: 'InvalidRequestGuardError';
      readonly count: number;
      readonly limit: number;
      readonly retryAfterMs: number;
    }
  /** Any other error a view refused with: its message. */
  | { readonly name: 'Error'; readonly message: string };

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

export function refusalOf(error: Error): Refusal {
  if (error instanceof TokenInvalidError) return { name: 'TokenInvalidError' };
  if (error instanceof WebhookGoneError) return { name: 'WebhookGoneError', resource: error.resource };
  if (error instanceof InvalidRequestGuardError) {
    const { count, limit, retryAfterMs } = error;
    return { name: 'InvalidRequestGuardError', count, limit, retryAfterMs };
  }
  return { name: 'Error', message: error.message };
}

export function errorOf(refusal: Refusal): Error {
  switch (refusal.name) {
    case 'TokenInvalidError':
      return new TokenInvalidError();
    case 'WebhookGoneError':
      return new WebhookGoneError(refusal.resource);
    case 'InvalidRequestGuardError':
      return new InvalidRequestGuardError(refusal.count, refusal.limit, refusal.retryAfterMs);
    case 'Error':
      return new Error(refusal.message);
  }
}
