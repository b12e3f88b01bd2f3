/** Dependencies point inward only: domain <- application <- infrastructure/interfaces <- main. */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'The domain imports nothing but itself (no framework, ORM, I/O or outer layer).',
      from: { path: '^src/domain' },
      to: { pathNot: '^src/domain' },
    },
    {
      name: 'application-depends-on-domain-only',
      severity: 'error',
      comment: 'Use cases depend on the domain and their own ports, never on adapters or frameworks.',
      from: { path: '^src/application' },
      to: { pathNot: '^src/(domain|application)' },
    },
    {
      name: 'infrastructure-not-on-interfaces',
      severity: 'error',
      from: { path: '^src/infrastructure' },
      to: { path: '^src/(interfaces|main)' },
    },
    {
      name: 'interfaces-not-on-infrastructure',
      severity: 'error',
      comment: 'HTTP adapters reach adapters through ports bound in the composition root.',
      from: { path: '^src/interfaces' },
      to: { path: '^src/(infrastructure|main)' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No file reaches itself through its imports (type-only imports included). Contexts, counted across their layers (src/<layer>/<context>, src/interfaces/<adapter>/<context>), form no cycle either: scripts/context-cycles.ts, run after this by `npm run lint:deps` (docs/architecture.md, the context map).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
