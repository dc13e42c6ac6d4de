// ESLint: typescript-eslint's recommended rules, and import rules that keep the arrows between
// folders pointing one way (no cycles; lower layers never import higher ones).
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Folders that a folder must not import from: the direction of the layers. */
const layers = [
  { target: './codegen', from: ['./src', './test', './scripts', './bench'], message: 'codegen reads tools.yaml only; it does not import the service.' },
  {
    target: './generated',
    from: ['./src', './test', './scripts', './bench', './codegen'],
    message: 'generated/ is output of codegen and imports only itself.',
  },
  {
    target: './src/upstream',
    from: ['./src/connectors', './src/tools', './src/server', './src/figures', './src/ledger'],
    message: 'the upstream layer sits below connectors, tools and the server.',
  },
  { target: './src/connectors', from: ['./src/tools', './src/server', './src/figures', './src/ledger'], message: 'connectors sit below tools and the server.' },
  {
    target: './src/figures',
    from: ['./src/tools', './src/server/app.ts', './src/server/mcp.ts', './src/server/run-tool-call.ts'],
    message: 'tools depend on figures, not the reverse.',
  },
  { target: './src/ledger', from: ['./src/tools', './src/server', './src/figures', './src/connectors'], message: 'the ledger sits below the server.' },
  {
    target: './src/database',
    from: ['./src/ledger', './src/tools', './src/server', './src/figures', './src/connectors', './src/upstream'],
    message: 'the database tools sit below the ledger and know nothing of money.',
  },
  {
    // The rest of the service sees the ledger only through its index: what it promises is what index.ts exports.
    target: [
      './src/*.ts',
      ...['admin', 'connectors', 'earth', 'figures', 'life', 'literature', 'server', 'statistics', 'tools', 'types', 'upstream'].map(
        (folder) => `./src/${folder}`,
      ),
    ],
    from: './src/ledger',
    except: ['./index.ts'],
    message: 'outside src/ledger, import the ledger from src/ledger/index.ts only.',
  },
  {
    target: './src/tools',
    from: ['./src/server/app.ts', './src/server/mcp.ts', './src/server/tool-call.ts', './src/server/run-tool-call.ts'],
    message: 'the server calls tools, not the reverse.',
  },
  { target: './src', from: ['./test', './scripts', './bench'], message: 'the service does not import tests, scripts or benchmarks.' },
];

export default tseslint.config(
  // dist/ is the production bundle; clients/typescript/dist is the compiled client (its source, clients/typescript/src, is linted)
  {
    ignores: [
      'node_modules/**',
      'scripts/mcp-conformance/**',
      'scripts/node-lines/**',
      'dist/**',
      'data/**',
      '**/*.cjs',
      'clients/typescript/dist/**',
      'test/codegen/fixtures/*/expected-clients/typescript/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.js'],
    plugins: { 'import-x': importX },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: layers }],
      'import-x/no-self-import': 'error',
      // upstream text is cleaned of control characters on purpose (TAP/VOTable answers, bodies)
      'no-control-regex': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/server/docs-page/**/*.js', 'src/server/account/page/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', localStorage: 'readonly', navigator: 'readonly' } },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off', // answers read as loose JSON in assertions
      '@typescript-eslint/no-unused-expressions': 'off', // chai's `expect(x).to.be.true`
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
