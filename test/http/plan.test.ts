/** A call's plan (src/http/plan.ts): every check a call gets, and what is derived once from what it was given. */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/dialects/index.ts';
import { TollgateArgumentError } from '../../src/errors.ts';
import { planCall, planOperation } from '../../src/http/plan.ts';
import { newCallState } from '../../src/limiter/call.ts';
import { operations } from '../../generated/routes.ts';
import { ManualClock } from '../support/manual-clock.ts';

const target = DIALECTS.v10.targets(undefined as never).targetOfRequest('GET', '/channels/1', 0);
/** A client's defaults under its timeout (ms, undefined for none). */
const defaults = (timeoutMs: number | undefined) => ({
  timeoutMs,
  maxWaitMs: Number.POSITIVE_INFINITY,
  transportRetries: 2,
  hasToken: true,
  relayed: false,
});
const input = (timeout?: number | false) => ({
  method: 'GET',
  path: '/channels/1',
  target,
  authenticated: true,
  nonceEnforced: false,
  ...(timeout !== undefined && { timeout }),
});

describe("a call's timeout", () => {
  it("is the client's unless the call names its own; false is none, on either", () => {
    expect(planCall(input(), defaults(15_000)).timeoutMs).toBe(15_000);
    expect(planCall(input(500), defaults(15_000)).timeoutMs).toBe(500);
    expect(planCall(input(false), defaults(15_000)).timeoutMs).toBeUndefined();
    expect(planCall(input(), defaults(undefined)).timeoutMs).toBeUndefined();
    expect(planCall(input(500), defaults(undefined)).timeoutMs).toBe(500);
  });
});

describe("a call's description, every default resolved once", () => {
  it("takes the client's maxWait and transport retries unless the call names its own", () => {
    const client = { ...defaults(15_000), maxWaitMs: 2000, transportRetries: 3 };
    expect(planCall(input(), client)).toMatchObject({ maxWaitMs: 2000, transportRetryLimit: 3 });
    expect(planCall({ ...input(), maxWait: 10, transportRetries: 0 }, client)).toMatchObject({
      maxWaitMs: 10,
      transportRetryLimit: 0,
    });
  });

  it('resends by the method and the nonce (a POST with an enforced nonce may go again, by its nonce)', () => {
    expect(planCall(input(), defaults(undefined)).resend).toBe('idempotent');
    expect(planCall({ ...input(), method: 'POST' }, defaults(undefined)).resend).toBe('never');
    expect(planCall({ ...input(), method: 'POST', nonceEnforced: true }, defaults(undefined)).resend).toBe('nonce');
  });

  it("a relay's call is never resent and retries nothing, whatever it asks for", () => {
    const plan = planCall({ ...input(), transportRetries: 5 }, { ...defaults(undefined), relayed: true });
    expect(plan).toMatchObject({ relayed: true, resend: 'never', transportRetryLimit: 0 });
  });

  it('is what the limiter makes its call of, field for field', () => {
    const plan = planCall({ ...input(), maxWait: 250 }, defaults(undefined));
    const call = newCallState(plan);
    for (const field of [
      'target',
      'identity',
      'signal',
      'maxWaitMs',
      'resend',
      'relayed',
      'transportRetryLimit',
    ] as const) {
      expect(call[field], field).toBe(plan[field]);
    }
  });
});

describe("a call's headers, checked when it is planned", () => {
  it("refuses Authorization on a call sent with the client's token, and only there", () => {
    const headers = { authorization: 'Bot other' };
    expect(() => planCall({ ...input(), headers }, defaults(undefined))).toThrow(TollgateArgumentError);
    expect(() => planCall({ ...input(), headers }, defaults(undefined))).toThrow(/one way to authenticate/);
    // No token to carry, or a call sent without it: the caller's own Authorization goes as given.
    expect(
      planCall({ ...input(), headers }, { ...defaults(undefined), hasToken: false }).headers?.get('authorization'),
    ).toBe('Bot other');
    expect(
      planCall({ ...input(), authenticated: false, headers }, defaults(undefined)).headers?.get('authorization'),
    ).toBe('Bot other');
  });

  it("drops V22's precision header, and copies the caller's headers (a relayed call's own copy is taken as it is)", () => {
    const given = new Headers({ 'x-ratelimit-precision': 'millisecond', 'x-mine': '1' });
    const plan = planCall({ ...input(), headers: given }, defaults(undefined));
    expect([...plan.headers!.keys()]).toEqual(['x-mine']);
    expect(plan.headers).not.toBe(given);
    expect(given.has('x-ratelimit-precision')).toBe(true);
    const relayed = planCall({ ...input(), headers: given }, { ...defaults(undefined), relayed: true });
    expect(relayed.headers).toBe(given);
    expect(given.has('x-ratelimit-precision')).toBe(false);
    expect(planCall(input(), defaults(undefined)).headers).toBeUndefined();
  });
});

describe("a typed call's plan", () => {
  const context = {
    dialect: DIALECTS.v10,
    targets: DIALECTS.v10.targets(operations),
    clock: new ManualClock(0),
    allowedMentions: undefined,
  };
  const search = operations['guilds.members.search'];

  it('refuses a missing query before it reads the body', () => {
    // A body this operation cannot take would fail its encoding; the missing query is named first.
    expect(() =>
      planOperation(context, defaults(undefined), search, ['1'], { body: { x: 1 } } as never, undefined),
    ).toThrow(/guilds\.members\.search needs a query/);
  });

  it('plans what the operation and its options say', () => {
    const plan = planOperation(
      context,
      defaults(15_000),
      search,
      ['1'],
      { query: { query: 'a' } },
      {
        maxWait: 5,
        headers: { 'x-mine': 'tidy' },
      },
    );
    expect(plan).toMatchObject({
      method: 'GET',
      path: '/guilds/1/members/search',
      authenticated: true,
      maxWaitMs: 5,
      timeoutMs: 15_000,
      resend: 'idempotent',
    });
    expect(plan.searchParams?.toString()).toBe('query=a');
    expect(plan.headers?.get('x-mine')).toBe('tidy');
  });
});
