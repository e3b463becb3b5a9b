import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      'packages/db/src/generated/**',
      'coverage/**',
      'test-results/**',
      'packages/cli/bundle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
    },
  },
  {
    // Hand-written SQL goes through SqlPool (packages/db/README.md, "Prisma or SQL").
    files: ['services/*/src/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...[
          '$queryRaw',
          '$executeRaw',
          '$queryRawUnsafe',
          '$executeRawUnsafe',
          '$queryRawTyped',
        ].map((property) => ({
          property,
          message:
            'Write SQL through SqlPool; Prisma raw queries only inside a Prisma transaction.',
        })),
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
);
