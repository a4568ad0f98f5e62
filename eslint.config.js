import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'site/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-properties': ['error',
        ...['sin', 'cos', 'tan', 'atan2', 'exp', 'log', 'pow', 'cbrt', 'hypot', 'random'].map((p) => ({
          object: 'Math', property: p,
          message: 'Not deterministic across JavaScript engines: use src/math.',
        })),
      ],
    },
  },
  {
    files: ['test/**', 'bench/**', 'src/game/**', 'src/cli/**', 'gallery/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
