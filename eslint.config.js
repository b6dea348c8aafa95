// ESLint for the page's ES modules: the recommended rules, plus the ones this code base keeps.
import js from '@eslint/js';
import globals from 'globals';

export default [
  // A virtual environment in the checkout (the README's first command makes one) holds an installed
  // copy of static/: the source is linted, not its copy.
  { ignores: ['.venv/**'] },
  js.configs.recommended,
  {
    files: ['static/js/**/*.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.browser },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // console.warn and console.error report what went wrong; nothing else is left in.
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-shadow': 'error',
      'no-unused-vars': ['error', { args: 'after-used', argsIgnorePattern: '^_' }],
      'object-shorthand': 'error',
      'prefer-template': 'error',
      // A function longer than this does more than one job: split it (as game.js and server.js were).
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    files: ['eslint.config.js'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
];
