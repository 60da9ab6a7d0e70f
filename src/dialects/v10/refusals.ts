/**
 * v10's refusals as data and back (the Dialect's `refusals`): what a Durable Object's view refused
 * a call with crosses to the isolate that asked as facts, and is the same class again there.
 */
import type { RefusalCodec, RefusalFacts } from '../../contracts/dialect.ts';
import { InvalidRequestGuardError, TokenInvalidError, WebhookGoneError } from './errors.ts';

export const v10Refusals: RefusalCodec = {
  factsOf(error): RefusalFacts | undefined {
    if (error instanceof TokenInvalidError) return { name: 'TokenInvalidError' };
    if (error instanceof WebhookGoneError) return { name: 'WebhookGoneError', resource: error.resource };
    if (error instanceof InvalidRequestGuardError) {
      const { count, limit, retryAfterMs } = error;
      return { name: 'InvalidRequestGuardError', count, limit, retryAfterMs };
    }
    return undefined;
  },
  errorOf(facts: RefusalFacts) {
    switch (facts.name) {
      case 'TokenInvalidError':
        return new TokenInvalidError();
      case 'WebhookGoneError':
        return new WebhookGoneError(String(facts.resource));
      case 'InvalidRequestGuardError':
        return new InvalidRequestGuardError(Number(facts.count), Number(facts.limit), Number(facts.retryAfterMs));
      default:
        return undefined;
    }
  },
};
