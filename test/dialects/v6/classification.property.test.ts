/**
 * Route classification over arbitrary paths: a path of a catalog shape always gets that shape's
 * key (and the bucket key of its major id); any other path gets `None`; nothing throws. The
 * oracle matches paths against the generated route table by regular expressions, independently
 * of the classifier's trie.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../../generated/index.ts';
import { routeKeyOf } from '../../../src/index.ts';
import type { PathSegment } from '../../../src/contracts/catalog.ts';
import type { RouteDefinition } from '../../../src/dialects/v6/classify.ts';
import { runs } from '../../support/property-runs.ts';

const U64_MAX = 2n ** 64n - 1n;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const u64 = fc.bigInt({ min: 0n, max: U64_MAX });
/** An id as a caller might write it: canonical, or with leading zeros. */
const idText = fc.tuple(u64, fc.nat({ max: 2 })).map(([id, zeros]) => '0'.repeat(zeros) + id.toString());
/** A free-text segment: anything but an empty segment, `.`, `..`, or a path/query/fragment delimiter. */
const freeText = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((text) => !/[/?#]/.test(text) && text !== '.' && text !== '..');

const fill = (segment: PathSegment) =>
  typeof segment === 'string' ? fc.constant(segment) : segment.kind === 'snowflake' ? idText : freeText;

/** A concrete path of one of the catalog's shapes, with the route it belongs to. */
const catalogPath = fc
  .constantFrom(...routeTable.flatMap((route) => route.patterns.map((pattern) => ({ route, pattern }))))
  .chain(({ route, pattern }) => fc.tuple(...pattern.map(fill)).map((segments) => ({ route, pattern, segments })));

const canonical = (id: string) => BigInt(id).toString();

function expectedBucketKey(
  route: RouteDefinition,
  pattern: readonly PathSegment[],
  segments: readonly string[],
  method: string,
): string {
  const index = pattern.findIndex((segment) => typeof segment !== 'string' && segment.name === route.major);
  if (index === -1) return route.key;
  const major = canonical(segments[index]!);
  return route.bucketHoldsMethod ? `${route.key}:${method}:${major}` : `${route.key}:${major}`;
}

/** Every route key whose shape (as a regular expression) matches the path. */
const shapes = routeTable.flatMap((route) =>
  route.patterns.map((pattern) => ({
    key: route.key,
    regex: new RegExp(
      '^' +
        pattern
          .map((segment) =>
            typeof segment === 'string'
              ? `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`
              : segment.kind === 'snowflake'
                ? '/([0-9]+)'
                : '/([^/]+)',
          )
          .join('') +
        '$',
    ),
    pattern,
  })),
);
function matchingKeys(path: string): Set<string> {
  const keys = new Set<string>();
  for (const { key, regex, pattern } of shapes) {
    const match = regex.exec(path);
    if (!match) continue;
    const values = match.slice(1);
    const parameters = pattern.filter((segment) => typeof segment !== 'string');
    const fits = parameters.every((segment, index) =>
      segment.kind === 'snowflake'
        ? BigInt(values[index]!) <= U64_MAX
        : values[index] !== '.' && values[index] !== '..',
    );
    if (fits) keys.add(key);
  }
  return keys;
}

describe('properties: route classification', () => {
  it('a catalog path gets its own key and bucket key, with or without a version prefix, query or trailing slash', () => {
    fc.assert(
      fc.property(
        catalogPath,
        fc.constantFrom(...METHODS),
        fc.constantFrom('', '/api', '/api/v6', '/v6'),
        fc.constantFrom('', '/', '?limit=5', '#top'),
        ({ route, pattern, segments }, method, prefix, suffix) => {
          const path = `${prefix}/${segments.join('/')}${suffix}`;
          expect(routeKeyOf(method, path)).toBe(expectedBucketKey(route, pattern, segments, method));
        },
      ),
      runs(3000),
    );
  });

  const vocabulary = [
    ...new Set(routeTable.flatMap((route) => route.patterns.flat().filter((segment) => typeof segment === 'string'))),
  ];
  const segment = fc.oneof(
    fc.constantFrom(...vocabulary),
    idText,
    freeText,
    fc.constantFrom('', '.', '..', '%2F', '18446744073709551616'),
  );

  it('any other path is None; a path that fits shapes gets one of their keys; nothing throws', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 0, maxLength: 7 }),
        fc.constantFrom(...METHODS),
        (segments, method) => {
          const path = `/${segments.join('/')}`;
          const bucketKey = routeKeyOf(method, path);
          const routeKey = bucketKey.split(':')[0]!;
          const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
          const keys = matchingKeys(trimmed);
          if (keys.size === 0) expect(bucketKey).toBe('None');
          else expect(keys.has(routeKey), `${path} → ${bucketKey}, shapes: ${[...keys].join(', ')}`).toBe(true);
        },
      ),
      runs(3000),
    );
  });

  it('arbitrary strings never throw and give a string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ maxLength: 8 }), (path, method) => {
        expect(typeof routeKeyOf(method, path)).toBe('string');
      }),
      runs(2000),
    );
  });
});
