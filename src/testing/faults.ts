/**
 * Scripted faults: what a test can ask the reference service to do wrong, the check that an
 * injected rule makes sense (so a typo fails at `inject`, not as a puzzling answer later), and
 * the queue the service takes them from, request by request.
 */

/** A scripted fault for the next matching request(s). */
export type Fault =
  /** Respond with these rate-limit header values instead (raw latin-1 strings carry any byte). */
  | { readonly kind: 'headers'; readonly headers: Readonly<Record<string, string>>; readonly status?: number }
  /** A 429 without retry-after. */
  | { readonly kind: 'rate-limited-without-retry-after' }
  /** A global 429 with this retry-after (ms), or without one. */
  | { readonly kind: 'global'; readonly retryAfterMs?: number }
  /** Answer with this status (5xx storms), and this JSON body (default `{ message: 'scripted failure' }`): an error such as `{ message: 'Unknown Role', code: 10011 }`. */
  | { readonly kind: 'status'; readonly status: number; readonly body?: object }
  /** Answer after this many (real) ms; the call is served all the same (a message create makes its message). */
  | { readonly kind: 'slow'; readonly delayMs: number }
  /** Send the status and headers at once, the body after this many (real) ms. */
  | { readonly kind: 'slow-body'; readonly delayMs: number }
  /** Close the connection without an answer; the call is not served (nothing is made). */
  | { readonly kind: 'drop' }
  /** v10: the CDN's static ban answer (429, no rate-limit headers, text body). */
  | { readonly kind: 'ban'; readonly retryAfterSeconds?: number }
  /** v10: a shared-scope 429 (a per-resource limit spent by others). */
  | { readonly kind: 'shared'; readonly retryAfterMs: number }
  /** v10: a sublimit 429 (scope user, Remaining > 0). */
  | { readonly kind: 'sublimit'; readonly retryAfterMs: number };

/** What `service.inject` takes: a fault, which requests it applies to, and how many times. */
export interface FaultRule {
  readonly fault: Fault;
  /** Only requests whose bucket key starts with this (default: any). */
  readonly bucketKeyPrefix?: string;
  /** How many requests it applies to (default 1). */
  readonly times?: number;
}

/** The scripted faults still to happen, first injected first taken. */
export class FaultQueue {
  readonly #faults: { rule: FaultRule; left: number }[] = [];

  /** Adds a fault for the next matching request(s). */
  inject(rule: FaultRule): void {
    checkFaultRule(rule);
    this.#faults.push({ rule, left: rule.times ?? 1 });
  }

  /** The fault for a request with this bucket key, if one is scripted; it is used up by one. */
  take(bucketKey: string): Fault | undefined {
    const index = this.#faults.findIndex(({ rule }) => bucketKey.startsWith(rule.bucketKeyPrefix ?? ''));
    if (index === -1) return undefined;
    const entry = this.#faults[index]!;
    entry.left -= 1;
    if (entry.left <= 0) this.#faults.splice(index, 1);
    return entry.rule.fault;
  }
}

const FAULT_KINDS = new Set([
  'headers',
  'rate-limited-without-retry-after',
  'global',
  'status',
  'slow',
  'slow-body',
  'drop',
  'ban',
  'shared',
  'sublimit',
]);

function checkFaultRule(rule: FaultRule): void {
  const fail = (what: string) => {
    throw new TypeError(`reference service: inject: ${what}`);
  };
  if (typeof rule !== 'object' || rule === null || typeof rule.fault !== 'object' || rule.fault === null)
    fail('needs { fault: { kind, … } }');
  const { fault } = rule;
  if (!FAULT_KINDS.has(fault.kind))
    fail(`unknown fault kind ${JSON.stringify(fault.kind)}; kinds: ${[...FAULT_KINDS].join(', ')}`);
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 1))
    fail('times must be a whole number ≥ 1');
  if (rule.bucketKeyPrefix !== undefined && typeof rule.bucketKeyPrefix !== 'string')
    fail('bucketKeyPrefix must be a string');
  if ((fault.kind === 'slow' || fault.kind === 'slow-body') && !(Number.isFinite(fault.delayMs) && fault.delayMs >= 0))
    fail('delayMs must be a number of ms ≥ 0');
  if (fault.kind === 'status' && !(Number.isInteger(fault.status) && fault.status >= 200 && fault.status <= 599))
    fail('status must be a whole number from 200 to 599');
  if (fault.kind === 'status' && fault.body !== undefined && (typeof fault.body !== 'object' || fault.body === null))
    fail('body must be an object (sent as JSON)');
  if (fault.kind === 'global' && fault.retryAfterMs !== undefined && !Number.isFinite(fault.retryAfterMs))
    fail('retryAfterMs must be a number of ms');
  if (
    (fault.kind === 'shared' || fault.kind === 'sublimit') &&
    !(Number.isFinite(fault.retryAfterMs) && fault.retryAfterMs >= 0)
  )
    fail('retryAfterMs must be a number of ms ≥ 0');
  if (
    fault.kind === 'ban' &&
    fault.retryAfterSeconds !== undefined &&
    !(Number.isInteger(fault.retryAfterSeconds) && fault.retryAfterSeconds >= 0)
  )
    fail('retryAfterSeconds must be a whole number ≥ 0');
  if (fault.kind === 'headers' && (typeof fault.headers !== 'object' || fault.headers === null))
    fail('headers must be an object of header values');
}
