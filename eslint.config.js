import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      // The modular monolith's one hard rule: a library is reached through its index only.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['#app/*/**'], message: 'Import a library through its index: #app/<lib>.' },
            {
              group: ['**/libs/*/src/**', '../../*/src/**', '../../../*/src/**'],
              message: 'Reach another library through #app/<lib>, never by path.',
            },
            { group: ['@app/*'], message: 'Libraries are imported as #app/<lib> (see docs/adr/0001).' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Nest's module classes are empty by design; specs use non-null assertions on known fixtures.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The one white-box path into a library (bench/internals.ts says why): the replay profile measures the store's parts.
    files: ['bench/internals.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
