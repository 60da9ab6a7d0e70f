/**
 * The zod shapes options are checked by, in one message style: every message names the option
 * and its range. Shared by the client's own options (`http/options.ts`) and those a dialect
 * contributes (`dialects/v10/options.ts`).
 */
import { z } from 'zod';

/** A number of ms in [min, max]: every message names the range. */
export const milliseconds = (what: string, min: number, max: number, orFalse = false) => {
  const span = max === Number.MAX_SAFE_INTEGER ? `, ${min} or more` : ` from ${min} to ${max}`;
  const range = `a number of milliseconds${span}${orFalse ? ', or false for none' : ''}`;
  return z
    .number({ error: `${what} must be ${range}` })
    .min(min, min === 0 ? `${what} must not be negative (${range})` : `${what} must be at least ${min} (${range})`)
    .max(max, `${what} must be at most ${max} (${range})`);
};

/** A whole number in [min, max], with `unit` in the messages, which all name the range. */
export const whole = (what: string, min: number, max: number, unit = '') => {
  const range = `a whole number${unit} from ${min} to ${max}`;
  return z
    .number({ error: `${what} must be ${range}` })
    .int(`${what} must be ${range}`)
    .min(min, `${what} must be at least ${min} (${range})`)
    .max(max, `${what} must be at most ${max} (${range})`);
};

export const isFunction = (value: unknown): boolean => typeof value === 'function';

/** A function option (a listener): anything else is named. */
export const listener = <Listener extends (...args: never[]) => unknown>(what: string) =>
  z.custom<Listener>(isFunction, `${what} must be a function`);
