/** Every property runs with a fixed seed and a bounded number of runs, so CI is repeatable. */
export const PROPERTY_SEED = 20261122;
export const runs = (numRuns: number) => ({ seed: PROPERTY_SEED, numRuns });

/** An integer from the environment (FC_SEED, FC_RUNS), or `fallback` when unset; anything else is an error. */
export function integerFromEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(text)}`);
  return value;
}
