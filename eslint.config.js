// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The folders of src/ that the layer rules know. */
const FOLDERS = [
  'contracts',
  'limiter',
  'dialects',
  'stores',
  'redis',
  'telemetry',
  'cdn',
  'http',
  'testing',
  'undici',
  'cloudflare',
];

/** Each layer of src/ and the folders below it, which it may import; it may import no other folder. */
const LAYERS = {
  contracts: [],
  limiter: ['contracts'],
  dialects: ['contracts'],
  stores: ['contracts', 'dialects'],
  redis: ['contracts', 'dialects', 'stores'],
  // A store beside Redis: the dialects' memory views run inside its object.
  cloudflare: ['contracts', 'dialects', 'stores'],
  telemetry: ['contracts', 'limiter'],
  cdn: [],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/scripts/**'], message: 'src/ and generated/ never import from scripts/.' }] },
      ],
    },
  },
  // The layers of src/ (docs/design.md): each imports only the layers below it.
  ...Object.entries(LAYERS).map(([folder, below]) =>
    layer(
      `src/${folder}/**`,
      FOLDERS.filter((other) => other !== folder && !below.includes(other)),
    ),
  ),
  {
    files: ['test/**', 'scripts/**'],
    rules: { 'no-restricted-imports': 'off' },
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

/** Files under `files` may not import from the named folders of src/ (nor from scripts/). */
function layer(files, forbidden) {
  return {
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/scripts/**'], message: 'src/ and generated/ never import from scripts/.' },
            ...forbidden.map((folder) => ({
              group: [`../${folder}/**`, `../../${folder}/**`, `../../../${folder}/**`],
              message: `${files.slice(0, -3)} sits below src/${folder}/ and may not import from it (docs/design.md).`,
            })),
          ],
        },
      ],
    },
  };
}
