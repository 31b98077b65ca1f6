// One lint config for every runtime; type-aware rules stay off to keep `npm run lint` fast on 2 cores.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.scratch/**',
      '.e2e-work/**',
      'test/e2e/artifacts/**',
      'test/webview/artifacts/**',
      'bin/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // Architecture invariant: core/ knows no transport (see ARCHITECTURE.md).
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'vscode',
            'vscode-languageserver*',
            'vscode-languageclient*',
            '../../server/*',
            '../../client/*',
            '../../webview/*',
            '../../cli/*',
          ],
        },
      ],
    },
  },
  {
    // What the server and the extension client both speak: no editor API, no client library.
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['vscode', 'vscode-languageclient*'] }],
    },
  },
);
