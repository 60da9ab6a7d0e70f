import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Type tests: misuse of the public signatures must not compile.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    testTimeout: 20_000,
    // Tests share no state; fixed seeds keep property runs repeatable.
    sequence: { shuffle: false },
  },
});
