// ESLint (typescript-eslint, type-aware) over the sources, tests, benches and examples: `npm run lint`, part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'scratch/**', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Promises are awaited, returned, or explicitly let go with `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Input validation rejects control characters by matching them: the patterns that do are the point.
      'no-control-regex': 'off',
    },
  },
  {
    // The service worker is served as written (a plain script in the worker's global scope): linted without types.
    files: ['console/public/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { projectService: false },
      globals: {
        self: 'readonly',
        caches: 'readonly',
        clients: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        URL: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        console: 'readonly',
      },
    },
  },
  {
    // The persistence kit is the one way to send SQL: a statement is a `sql` value (persistence/sql.ts)
    // run by SqlRunner / UnitOfWorkSql. Text with a parameter list, and the ORM's raw execute, stay out.
    // (The kit itself, and the audit context it sets on each connection, talk to the driver.)
    files: ['src/**/*.ts'],
    ignores: ['src/infrastructure/persistence/**', 'src/infrastructure/audit/audit-connection.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query'][arguments.0.type=/^(Literal|TemplateLiteral|BinaryExpression)$/]",
          message:
            'Write the statement with the sql tag (persistence/sql.ts): runner.query(sql`... ${value} ...`), not text with a parameter list.',
        },
        {
          selector: "CallExpression[callee.property.name='execute'][arguments.0.type=/^(Literal|TemplateLiteral|BinaryExpression)$/]",
          message: "Raw SQL goes through the persistence kit (this.sql.query(sql`...`), ContextSql or the pool), not the ORM's execute.",
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      // Tests read loosely typed JSON bodies and build partial fixtures.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
