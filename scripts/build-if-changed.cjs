#!/usr/bin/env node
'use strict';
/**
 * `npm start`'s build step: compiles the service (tsc -p tsconfig.build.json) only when its sources
 * changed since the last successful build, and says which it is doing; then the console
 * (scripts/build-console.cjs), likewise only when its sources changed. The sources are src/, the
 * tsconfig files and package-lock.json; their content's digest is kept in dist/.build-stamp after a
 * build that succeeded, so a second start with nothing changed skips straight to starting.
 */
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { inputFiles: sourceFiles, sourceDigest } = require('./source-digest.cjs');
const { spawnSync } = require('node:child_process');
const { buildConsoleIfChanged } = require('./build-console.cjs');

const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = path.join('dist', '.build-stamp');
const ENTRY = path.join('dist', 'src', 'main', 'server.js');

/** Every input file under `root`, sorted. */
const inputFiles = (root) => sourceFiles(root, INPUTS);

/** The digest of the sources: names and contents. */
const fingerprint = (root) => sourceDigest(root, INPUTS);

/** Whether dist/ holds a build of exactly these sources. */
function isBuildCurrent(root) {
  const stamp = path.join(root, STAMP);
  if (!existsSync(path.join(root, ENTRY)) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === fingerprint(root);
}

function buildIfChanged(root, log = (line) => process.stdout.write(`${line}\n`), buildConsole = buildConsoleIfChanged) {
  const started = Date.now();
  if (isBuildCurrent(root)) {
    const consoleStatus = buildConsole(root, log);
    if (consoleStatus !== 0) {
      log('The console build failed (see above): not starting.');
      return consoleStatus;
    }
    log(`TypeScript build is current (sources unchanged since the last build): starting.`);
    return 0;
  }
  const first = !existsSync(path.join(root, ENTRY));
  log(
    first
      ? 'Compiling TypeScript (tsc -p tsconfig.build.json): the first build takes about a minute...'
      : 'Sources changed since the last build: compiling TypeScript (tsc -p tsconfig.build.json)...',
  );
  const digest = fingerprint(root);
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    log('The TypeScript build failed (see above): not starting.');
    return result.status ?? 1;
  }
  writeFileSync(path.join(root, STAMP), `${digest}\n`);
  const consoleStatus = buildConsole(root, log);
  if (consoleStatus !== 0) {
    log('The console build failed (see above): not starting.');
    return consoleStatus;
  }
  log(`Compiled in ${((Date.now() - started) / 1000).toFixed(1)} s: starting.`);
  return 0;
}

module.exports = { fingerprint, isBuildCurrent, buildIfChanged, inputFiles };

if (require.main === module) process.exit(buildIfChanged(path.resolve(__dirname, '..')));
