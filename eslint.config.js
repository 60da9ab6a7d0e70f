// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './layers.js';

export default tseslint.config(
  // site/: `npm run docs`'s output (TypeDoc's scripts); .stryker-tmp/ and reports/: `npm run mutate`'s
  // sandboxes (copies of the repository) and reports.
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/results/', 'site/', '.stryker-tmp/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // The layer table (layers.js): what each folder and root file of src/, generated/ and scripts/ may import.
  {
    files: ['src/**/*.ts', 'generated/**/*.ts', 'scripts/**/*.ts'],
    plugins: { layers: layersPlugin },
    rules: { 'layers/imports': 'error' },
  },
  // No function over 100 lines, as written (comments and blank lines count): a longer one does
  // more than one job. Tests are exempt: a describe block holds its cases.
  {
    files: ['src/**/*.ts', 'generated/**/*.ts', 'catalog/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }],
    },
  },
  // A promise nobody handles is an unhandled rejection in the user's process, which Node.js ends
  // the process on by default: every promise the SDK makes is awaited, returned or caught (or
  // marked `void`, where it cannot reject).
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
);
