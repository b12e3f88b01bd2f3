#!/usr/bin/env node
'use strict';
/**
 * The console's build (console/, served at /app from dist/console), run by `npm start`'s build step
 * after the service's: only when its sources changed. Its inputs are console/ (less the files generated
 * into it), src/ (the API it is typed against and the descriptors its catalogue is made of), the two
 * generators and package-lock.json; their digest is kept in dist/console/.build-stamp after a build
 * that succeeded. Steps: the API types from the service's own OpenAPI document
 * (scripts/console-api-types.ts), the catalogue of channel types and their fields from the
 * descriptors (scripts/console-catalogue.ts), the typecheck (so an API change the console does not
 * follow stops the build), then Vite's production build.
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { sourceDigest } = require('./source-digest.cjs');
const { spawnSync } = require('node:child_process');

const GENERATORS = [path.join('scripts', 'console-api-types.ts'), path.join('scripts', 'console-catalogue.ts')];
const INPUTS = ['console', 'src', ...GENERATORS, path.join('scripts', 'precompress-console.cjs'), 'package-lock.json'];
const GENERATED = [path.join('console', 'src', 'api', 'schema.d.ts'), path.join('console', 'src', 'api', 'catalogue.ts')];
const OUT = path.join('dist', 'console');
const STAMP = path.join(OUT, '.build-stamp');

/** The digest of the console's inputs (the files generated into console/ left out: they follow src/). */
const fingerprint = (root) => sourceDigest(root, INPUTS, (file) => GENERATED.includes(file));

function isConsoleCurrent(root) {
  const stamp = path.join(root, STAMP);
  if (!existsSync(path.join(root, OUT, 'index.html')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === fingerprint(root);
}

/** The steps of a build, each a node program with its arguments. */
const steps = (root) => [
  { what: 'API types from the OpenAPI document', args: ['--import', 'tsx', path.join(root, GENERATORS[0])] },
  { what: 'catalogue from the descriptors', args: ['--import', 'tsx', path.join(root, GENERATORS[1])] },
  {
    what: 'typecheck',
    args: [require.resolve('typescript/bin/tsc', { paths: [root] }), '-p', path.join(root, 'console', 'tsconfig.json')],
  },
  {
    what: 'bundle',
    args: [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(root, 'console', 'vite.config.mts')],
  },
  { what: 'precompress', args: [path.join(root, 'scripts', 'precompress-console.cjs'), path.join(root, OUT, 'assets')] },
];

function buildConsoleIfChanged(root, log = (line) => process.stdout.write(`${line}\n`)) {
  if (!existsSync(path.join(root, 'console'))) return 0;
  if (isConsoleCurrent(root)) {
    log('Console build is current (sources unchanged since the last build).');
    return 0;
  }
  const started = Date.now();
  log('Building the console (API types, catalogue, typecheck, Vite, precompressed assets)...');
  const digest = fingerprint(root);
  for (const step of steps(root)) {
    const result = spawnSync(process.execPath, step.args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
    });
    if (result.status !== 0) {
      log(`The console build failed at its ${step.what} (see above).`);
      return result.status ?? 1;
    }
  }
  writeFileSync(path.join(root, STAMP), `${digest}\n`);
  log(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return 0;
}

module.exports = { buildConsoleIfChanged, isConsoleCurrent, fingerprint };

if (require.main === module) process.exit(buildConsoleIfChanged(path.resolve(__dirname, '..')));
