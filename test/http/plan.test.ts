/** A call's plan (src/http/plan.ts): what is derived once from what the call was given. */
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/dialects/index.ts';
import { planCall } from '../../src/http/plan.ts';

const target = DIALECTS.v10.targets(undefined as never).targetOfRequest('GET', '/channels/1', 0);
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
    expect(planCall(input(), 15_000).timeoutMs).toBe(15_000);
    expect(planCall(input(500), 15_000).timeoutMs).toBe(500);
    expect(planCall(input(false), 15_000).timeoutMs).toBeUndefined();
    expect(planCall(input(), undefined).timeoutMs).toBeUndefined();
    expect(planCall(input(500), undefined).timeoutMs).toBe(500);
  });
});
