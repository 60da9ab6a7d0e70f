/**
 * Lanes by token, for a relay (a lane per Authorization it meets) and a client's `withToken`: each
 * made on its token's first call and kept for the next, at most `maxTokens` of them. Past that,
 * the least recently used lane with nothing under way is closed: its limiter lets go of its view
 * (the store keeps a view that is still busy, and drops an idle one), and a later call of its
 * token makes the lane anew.
 */

/** How many tokens' lanes a relay or a client keeps by default. */
export const DEFAULT_MAX_TOKENS = 1000;

/** What a lane must tell and do to be kept here; a relay's and a client's lanes add their own parts. */
export interface TokenLane {
  /** Calls of the lane that are waiting or under way: a lane with any is never closed here. */
  readonly inFlight: number;
  close(): Promise<void>;
}

export class TokenLanes<Lane extends TokenLane> {
  /** By token, least recently used first. */
  readonly #lanes = new Map<string, Lane>();
  readonly #maxTokens: number;
  readonly #make: (token: string) => Lane;

  constructor(maxTokens: number, make: (token: string) => Lane) {
    this.#maxTokens = maxTokens;
    this.#make = make;
  }

  /** The lane of `token`, made if it has none; it becomes the most recently used. */
  of(token: string): Lane {
    const found = this.#lanes.get(token);
    if (found) {
      this.#lanes.delete(token);
      this.#lanes.set(token, found);
      return found;
    }
    const lane = this.#make(token);
    this.#lanes.set(token, lane);
    if (this.#lanes.size > this.#maxTokens) this.#evictOneIdle(lane);
    return lane;
  }

  /** The lane of `token` if one is kept, without making one or changing the order. */
  peek(token: string): Lane | undefined {
    return this.#lanes.get(token);
  }

  /** Closes the lane of `token`, if one is kept. */
  async drop(token: string): Promise<void> {
    const lane = this.#lanes.get(token);
    if (lane === undefined) return;
    this.#lanes.delete(token);
    await lane.close();
  }

  get size(): number {
    return this.#lanes.size;
  }

  /** Closes every lane. */
  async close(): Promise<void> {
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    await Promise.all(lanes.map((lane) => lane.close()));
  }

  #evictOneIdle(newest: Lane): void {
    for (const [token, candidate] of this.#lanes) {
      if (candidate.inFlight > 0 || candidate === newest) continue;
      this.#lanes.delete(token);
      // Its limiter only lets go of its view (the store stays open): nothing to wait for or report.
      candidate.close().catch(() => {});
      return;
    }
  }
}
