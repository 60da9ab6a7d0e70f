/**
 * HttpError over any body: whatever the service answers (any JSON value, nesting far deeper than
 * the stack, huge arrays, long and control-laden text), the error is made, its message stays
 * within MAX_HTTP_ERROR_MESSAGE with a field error a line, and `fieldErrors` within
 * MAX_FIELD_ERRORS. And on Discord-shaped `errors`, `fieldErrors` is exactly the errors put in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError, type CallIdentity, type FieldError } from '../../src/index.ts';
import {
  MAX_ERRORS_DEPTH,
  MAX_FIELD_ERRORS,
  MAX_HTTP_ERROR_MESSAGE,
  SHOWN_FIELD_ERRORS,
} from '../../src/error-body.ts';
import { runs } from '../support/property-runs.ts';

/** Short text of any code units, or a long run of a letter, a newline or an astral character. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .tuple(fc.nat({ max: 20_000 }), fc.constantFrom('x', '\n', '\u{1F600}', '\u2028'))
    .map(([length, unit]) => unit.repeat(length)),
);
const fieldError = fc.record({ code: text, message: text });
/** `errors` shaped as Discord's: fields, indexes and `_errors` lists, nested. */
const discordShaped = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record({ _errors: fc.array(fieldError, { maxLength: 4 }) }),
    fc.dictionary(fc.oneof(fc.constantFrom('_errors', '0', '1', 'content', 'embeds'), text), tie('node'), {
      maxKeys: 4,
    }),
    fc.array(tie('node'), { maxLength: 3 }),
    text,
  ),
})).node;
/** Nesting far past MAX_ERRORS_DEPTH (and past what a recursive walk's stack would hold). */
const deep = fc.tuple(fc.nat({ max: 100_000 }), fc.constantFrom('object', 'array', '_errors')).map(([depth, how]) => {
  let errors: unknown = { _errors: [{ code: 'DEEP', message: 'deep' }] };
  for (let level = 0; level < depth; level++) {
    errors = how === 'object' ? { field: errors } : how === 'array' ? [errors] : { _errors: [errors] };
  }
  return errors;
});
/** A huge list of field errors, as an array or as an object of indexes. */
const huge = fc.tuple(fc.nat({ max: 200_000 }), fc.boolean()).map(([count, asObject]) => {
  const list = Array.from({ length: count }, (_, index) => ({ _errors: [{ code: 'C', message: `m${index}` }] }));
  return asObject ? { ...list } : list;
});
const errors = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue() },
  { weight: 3, arbitrary: discordShaped },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: huge },
);
const body = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue() },
  { weight: 5, arbitrary: fc.record({ code: fc.integer(), message: text, errors }) },
  {
    weight: 1,
    arbitrary: fc.record({
      error: text,
      error_description: fc.option(text, { nil: undefined }),
      error_uri: fc.option(text),
    }),
  },
);
const call = fc
  .record({ method: text, route: text })
  .map(({ method, route }): CallIdentity => ({ method, route, routeKey: route, bucketKey: route, resource: '' }));
const options = fc.record({ operation: text, pathTemplate: text }, { requiredKeys: [] });

describe('HttpError over any body', () => {
  it('is made, its message bounded, a field error a line; fieldErrors bounded', () => {
    fc.assert(
      fc.property(call, fc.integer({ min: 200, max: 599 }), body, options, (identity, status, answered, named) => {
        const error = new HttpError(identity, new Response(null, { status }), answered, named);
        expect(error.message.length).toBeLessThanOrEqual(MAX_HTTP_ERROR_MESSAGE);
        const [, ...lines] = error.message.split('\n');
        expect(lines.length).toBeLessThanOrEqual(SHOWN_FIELD_ERRORS + 1);
        for (const line of lines) expect(line).toMatch(/^ {2}\S/);
        expect(error.fieldErrors.length).toBeLessThanOrEqual(MAX_FIELD_ERRORS);
        // The first field errors, then at most one line that counts the rest.
        const shown = Math.min(error.fieldErrors.length, SHOWN_FIELD_ERRORS);
        expect(lines.slice(0, shown).filter((line) => line.startsWith('  …'))).toEqual([]);
        expect(lines.slice(shown).every((line) => line.startsWith('  …'))).toBe(true);
        expect(lines.length).toBeGreaterThanOrEqual(shown + (error.fieldErrors.length > shown ? 1 : 0));
      }),
      runs(300),
    );
  });
});

/** A field error at a path of keys: field names and indexes, as Discord's `errors` names them. */
const placed = fc.record({
  keys: fc.array(fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), fc.nat({ max: 30 }).map(String)), {
    maxLength: MAX_ERRORS_DEPTH,
  }),
  code: fc.stringMatching(/^[A-Z_]{1,20}$/),
  message: fc.string({ maxLength: 30 }),
});

/** Discord's `errors` holding `errors`: each under its keys, in that place's `_errors`. */
function errorsHolding(errors: readonly { keys: readonly string[]; code: string; message: string }[]) {
  const root: Record<string, unknown> = {};
  for (const { keys, code, message } of errors) {
    let node = root;
    for (const key of keys) {
      if (!Object.hasOwn(node, key)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    if (!Object.hasOwn(node, '_errors')) node._errors = [];
    (node._errors as unknown[]).push({ code, message });
  }
  return root;
}

/** How a path of keys reads, written apart from the code under test. */
const pathOf = (keys: readonly string[]) =>
  keys
    .map((key) => (/^\d+$/.test(key) ? `[${key}]` : `.${key}`))
    .join('')
    .replace(/^\./, '');

const byPath = (a: FieldError, b: FieldError) =>
  a.path.localeCompare(b.path) || a.code.localeCompare(b.code) || a.message.localeCompare(b.message);

describe("Discord's errors, flattened", () => {
  it('fieldErrors holds exactly the errors the body places, each at its path', () => {
    fc.assert(
      fc.property(fc.array(placed, { maxLength: 60 }), (errors) => {
        const error = new HttpError(
          { method: 'POST', route: 'POST /x', routeKey: 'X', bucketKey: 'X', resource: '' },
          new Response(null, { status: 400 }),
          { code: 50035, message: 'Invalid Form Body', errors: errorsHolding(errors) },
        );
        const expected = errors.map(({ keys, code, message }) => ({ path: pathOf(keys), code, message }));
        expect([...error.fieldErrors].sort(byPath)).toEqual(expected.sort(byPath));
      }),
      runs(300),
    );
  });
});
