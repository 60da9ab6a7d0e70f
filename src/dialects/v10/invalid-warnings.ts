/** V15: warnings as the invalid-request count nears the guard's limit. */
import type { InvalidRequestsEvent } from '../../contracts/dialect.ts';
import { INVALID_WARNING_LEVELS } from './rules.ts';

/**
 * A warning each time the count reaches a level it had not reached since it was last low.
 * One per client: its limiters (the token's, and the one for calls without Authorization) read
 * one store-wide count, so a level is told once.
 */
export class InvalidRequestWarnings {
  readonly #limit: number;
  readonly #listener: ((event: InvalidRequestsEvent) => void) | undefined;
  /** The highest level reported since the count was last below the first level. */
  #warnedLevel = 0;

  constructor(limit: number, listener: ((event: InvalidRequestsEvent) => void) | undefined) {
    this.#limit = limit;
    this.#listener = listener;
  }

  report(count: number): void {
    const fraction = count / this.#limit;
    if (fraction < INVALID_WARNING_LEVELS[0]) this.#warnedLevel = 0;
    const level = INVALID_WARNING_LEVELS.findLast((candidate) => fraction >= candidate);
    if (level === undefined || level <= this.#warnedLevel) return;
    this.#warnedLevel = level;
    try {
      this.#listener?.({ count, limit: this.#limit, level });
    } catch {
      // A failing listener must not fail the request it observes.
    }
  }
}
