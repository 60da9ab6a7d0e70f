/** V15's warnings: each level once until the count falls low again, one reporter per client. */
import { expect, it } from 'vitest';
import type { InvalidRequestsEvent } from '../../../src/contracts/dialect.ts';
import { InvalidRequestWarnings } from '../../../src/dialects/v10/invalid-warnings.ts';

it('V15: tells each level once as the count rises, again only after the count fell below the first', () => {
  const events: InvalidRequestsEvent[] = [];
  const warnings = new InvalidRequestWarnings(10, (event) => events.push(event));
  for (const count of [1, 4, 5, 6, 5, 8, 9, 8, 2, 5]) warnings.report(count);
  expect(events).toEqual([
    { count: 5, limit: 10, level: 0.5 },
    { count: 8, limit: 10, level: 0.8 },
    { count: 5, limit: 10, level: 0.5 },
  ]);
});

it('a level jumped over is not told; a throwing listener does not escape', () => {
  const levels: number[] = [];
  const warnings = new InvalidRequestWarnings(10, ({ level }) => {
    levels.push(level);
    throw new Error('listener failed');
  });
  expect(() => warnings.report(9)).not.toThrow();
  warnings.report(6);
  expect(levels).toEqual([0.8]);
});
