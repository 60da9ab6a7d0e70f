/** Every property runs with a fixed seed and a bounded number of runs, so CI is repeatable. */
export const PROPERTY_SEED = 20261122;
export const runs = (numRuns: number) => ({ seed: PROPERTY_SEED, numRuns });
