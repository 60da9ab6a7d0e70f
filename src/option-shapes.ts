/**
 * The zod shapes options are checked by, in one message style: every message names the option
 * and its range. Shared by the client's own options (`http/options.ts`) and those a dialect
 * contributes (`dialects/v10/options.ts`).
 */
import { z } from 'zod';
import { TollgateArgumentError } from './errors.ts';

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

/** `options` as `schema` reads them, or one TollgateArgumentError from `who` naming every problem. */
export function checkedOptions<Schema extends z.ZodType>(
  schema: Schema,
  options: unknown,
  who: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(options);
  if (parsed.success) return parsed.data;
  throw new TollgateArgumentError(`${who}: ${parsed.error.issues.map(describeIssue).join('; ')}`);
}

/** An issue as a phrase that names its option: a nested one by its path, said once. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String);
  if (path.length === 0) return issue.message;
  // A message of these shapes names its own option ("maxWait must not be negative"): the path before it goes in front.
  if (issue.message.startsWith(`${path.at(-1)} `)) return [...path.slice(0, -1), issue.message].join('.');
  return `${path.join('.')}: ${issue.message}`;
}
