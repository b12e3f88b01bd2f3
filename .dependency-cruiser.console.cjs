/**
 * The console (console/src, a Preact app bundled by Vite) under the same dependency lint as the
 * service: no file reaches itself through its imports, and the console reads the service only
 * through its API, the files generated from it (console/src/api) and its pure domain rules. Run from
 * console/ (its tsconfig's paths are relative to it) by `npm run lint:deps`.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No file of the console reaches itself through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'console-stands-alone',
      severity: 'error',
      comment:
        "The console imports nothing of the service's sources but its pure domain rules (src/domain: no framework, no I/O), asked where the console must agree with the service; what it knows of the API is generated into console/src/api.",
      from: { path: '^src' },
      to: { path: '^\.\./(src/(?!domain/)|test/|scripts/|bench/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
