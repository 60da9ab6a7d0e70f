/**
 * `TollgateLimits`: the Durable Object that holds one token's limits. Export it from your Worker
 * and bind it (wrangler: `durable_objects.bindings`, `class_name = "TollgateLimits"`); every
 * Worker and isolate of the bot then decides through one object per token. The decisions are
 * `LimitsHost`'s: this class only takes the RPC calls.
 */
import { DurableObject } from 'cloudflare:workers';
import { LimitsHost } from './limits-host.ts';
import type { LimitsAnswers, LimitsCall, LimitsMethod } from './protocol.ts';

/**
 * The Durable Object that keeps a token's limits: export it from the Worker and bind it (as
 * `TOLLGATE_LIMITS` in docs/cloudflare.md); `DurableObjectStore` sends it every decision.
 */
export class TollgateLimits extends DurableObject {
  readonly #host = new LimitsHost();

  /** Every store-view call arrives here (`LIMITS_RPC_METHOD`). */
  decide(call: LimitsCall): Promise<LimitsAnswers[LimitsMethod]> {
    return this.#host.decide(call);
  }
}
