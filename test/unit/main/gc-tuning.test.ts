import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  LARGE_AT_MONITORS,
  SMALL_MALLOC_TUNABLES,
  asyncContextFlags,
  environmentForChecks,
  missingEnvironment,
  missingNodeFlags,
  nodeFlagsForChecks,
  scaleForMonitors,
  serviceScale,
  serviceScaleSetting,
} from '../../../src/main/gc-tuning';

const root = path.join(__dirname, '..', '..', '..');

describe('garbage-collector settings of a check process', () => {
  it("are the environment and flags `npm start` starts node with at the configured scale (the allocator, the young generation and the collector's threads are set at start)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).to.equal('exec env $(node scripts/node-command.cjs) dist/src/main/server.js');
    // The script reads the compiled module: run it against this source instead, as the build would.
    const printed = (scale: string, extra: NodeJS.ProcessEnv = {}) =>
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `require('./src/main/gc-tuning').launchCommand().then((command) => process.stdout.write(command.join(' ')))`,
        ],
        {
          cwd: root,
          // No DATABASE_URL: auto cannot ask the (embedded, not yet started) database, so small.
          env: { ...process.env, SERVICE_SCALE: scale, DATABASE_URL: '', GLIBC_TUNABLES: undefined, ...extra },
        },
      ).toString();
    const small = `GLIBC_TUNABLES=${SMALL_MALLOC_TUNABLES} node ${nodeFlagsForChecks('small').join(' ')}`;
    expect(printed('large')).to.equal(`node ${nodeFlagsForChecks('large').join(' ')}`);
    expect(printed('small')).to.equal(small);
    expect(printed('')).to.equal(small);
    // An operator's own allocator settings are kept.
    expect(printed('small', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' })).to.equal(`node ${nodeFlagsForChecks('small').join(' ')}`);
    const script = fs.readFileSync(path.join(root, 'scripts', 'node-command.cjs'), 'utf8');
    expect(script).to.include("require('../dist/src/main/gc-tuning')");
    expect(script).to.include('.launchCommand()');

    // Run as the start script runs it: env hands node its environment and flags, in one process.
    const seen = JSON.parse(
      execFileSync(
        'sh',
        [
          '-c',
          `exec env ${small} -e "process.stdout.write(JSON.stringify({ tunables: process.env.GLIBC_TUNABLES, flags: process.execArgv.filter((f) => f.startsWith('--')) }))"`,
        ],
        { env: { ...process.env, GLIBC_TUNABLES: undefined, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` } },
      ).toString(),
    ) as { tunables: string; flags: string[] };
    expect(seen).to.deep.equal({ tunables: SMALL_MALLOC_TUNABLES, flags: nodeFlagsForChecks('small') });
  });

  it("gives glibc's allocator settings to a small process only, and keeps an operator's own", () => {
    expect(environmentForChecks('small', {})).to.deep.equal({ GLIBC_TUNABLES: SMALL_MALLOC_TUNABLES });
    expect(environmentForChecks('large', {})).to.deep.equal({});
    expect(environmentForChecks('small', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' })).to.deep.equal({});
    // Blocks from 128 KB mapped (so given back when freed), the heap's free top trimmed, two arenas.
    expect(SMALL_MALLOC_TUNABLES.split(':')).to.have.members([
      'glibc.malloc.arena_max=2',
      'glibc.malloc.mmap_threshold=131072',
      'glibc.malloc.trim_threshold=131072',
    ]);
  });

  it('chooses the large scale for auto from LARGE_AT_MONITORS monitors held at start, small when it cannot tell', () => {
    expect(serviceScaleSetting({})).to.equal('auto');
    expect(serviceScaleSetting({ SERVICE_SCALE: 'large' })).to.equal('large');
    expect(serviceScaleSetting({ SERVICE_SCALE: 'small' })).to.equal('small');
    expect(scaleForMonitors(undefined)).to.equal('small');
    expect(scaleForMonitors(LARGE_AT_MONITORS - 1)).to.equal('small');
    expect(scaleForMonitors(LARGE_AT_MONITORS)).to.equal('large');
    expect(scaleForMonitors(5, 5)).to.equal('large');
  });

  it('knows the scale an auto process runs at from the flags it was started with', () => {
    expect(serviceScale('auto', nodeFlagsForChecks('large'), '')).to.equal('large');
    expect(serviceScale('auto', [], '--no_memory_reducer')).to.equal('large');
    expect(serviceScale('auto', nodeFlagsForChecks('small'), '')).to.equal('small');
    expect(serviceScale('auto', [], '')).to.equal('small');
    expect(serviceScale('large', [], '')).to.equal('large');
    expect(serviceScale('small', nodeFlagsForChecks('large'), '')).to.equal('small');
  });

  it('keeps the large young generation and the memory reducer off for the large scale only, and the collector on one thread for the small', () => {
    expect(nodeFlagsForChecks('large')).to.include.members(['--max-semi-space-size=64', '--no-memory-reducer']);
    // A large process answers its API too: the collector's helper threads halve its pauses.
    expect(nodeFlagsForChecks('large')).to.not.include('--single-threaded-gc');
    const small = nodeFlagsForChecks('small');
    expect(small).to.include('--single-threaded-gc');
    expect(small).to.not.include('--no-memory-reducer');
    const semiSpace = Number(small.find((flag) => flag.startsWith('--max-semi-space-size='))!.split('=')[1]);
    expect(semiSpace).to.be.below(64);
  });

  it("turns on the runtime's async context without async hooks where node has it but not by default (22.7 to 23), at either scale", () => {
    const frame = '--experimental-async-context-frame';
    for (const version of ['22.7.0', '22.23.5', 'v22.12.0', '23.11.1']) expect(asyncContextFlags(version), version).to.deep.equal([frame]);
    // Node 20 has no such implementation, 22.6 and earlier neither; Node 24 uses it by default.
    for (const version of ['20.19.0', '20.20.2', '22.6.0', '24.0.0', '24.22.3', '26.1.0'])
      expect(asyncContextFlags(version), version).to.deep.equal([]);
    for (const scale of ['large', 'small'] as const) {
      expect(nodeFlagsForChecks(scale, '22.23.5')).to.include(frame);
      expect(nodeFlagsForChecks(scale, '24.22.3')).to.not.include(frame);
      expect(nodeFlagsForChecks(scale, '22.23.5').filter((flag) => flag !== frame)).to.deep.equal(nodeFlagsForChecks(scale, '20.20.2'));
    }
    // This process's own version decides what npm start gives it.
    expect(nodeFlagsForChecks('large')).to.deep.equal(nodeFlagsForChecks('large', process.versions.node));
  });

  it('names the flags a process was started without, wherever node took them from', () => {
    const all = nodeFlagsForChecks('large');
    expect(missingNodeFlags(all, '', 'large')).to.deep.equal([]);
    expect(missingNodeFlags([], '', 'large')).to.deep.equal(all);
    const youngGeneration = all.find((flag) => flag.startsWith('--max-semi-space-size='))!;
    expect(missingNodeFlags(['--no_memory_reducer'], youngGeneration, 'large')).to.deep.equal([]);
    expect(missingNodeFlags(['--no-memory-reducer'], '', 'large')).to.deep.equal(all.filter((flag) => flag !== '--no-memory-reducer'));
    expect(missingNodeFlags(nodeFlagsForChecks('small'), '', 'small')).to.deep.equal([]);
  });

  it("names the allocator's variable a small process was started without (an operator's own value counts as given)", () => {
    expect(missingEnvironment('small', {})).to.deep.equal(['GLIBC_TUNABLES']);
    expect(missingEnvironment('small', { GLIBC_TUNABLES: SMALL_MALLOC_TUNABLES })).to.deep.equal([]);
    expect(missingEnvironment('small', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=1' })).to.deep.equal([]);
    expect(missingEnvironment('large', {})).to.deep.equal([]);
  });
});
