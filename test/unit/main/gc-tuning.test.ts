import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { missingNodeFlags, nodeFlagsForChecks, serviceScale } from '../../../src/main/gc-tuning';

const root = path.join(__dirname, '..', '..', '..');

describe('garbage-collector settings of a check process', () => {
  it("are the flags `npm start` gives node at the configured scale (the young generation and the collector's threads are set at start)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).to.equal('exec node $(node scripts/node-flags.cjs) dist/src/main/server.js');
    // The script reads the compiled module: run it against this source instead, as the build would.
    const printed = (scale: string) =>
      execFileSync(
        process.execPath,
        ['--import', 'tsx', '-e', `process.stdout.write(require('./src/main/gc-tuning').nodeFlagsForChecks().join(' '))`],
        {
          cwd: root,
          env: { ...process.env, SERVICE_SCALE: scale },
        },
      ).toString();
    expect(printed('large')).to.equal(nodeFlagsForChecks('large').join(' '));
    expect(printed('')).to.equal(nodeFlagsForChecks('small').join(' '));
    expect(fs.readFileSync(path.join(root, 'scripts', 'node-flags.cjs'), 'utf8')).to.include(
      "require('../dist/src/main/gc-tuning').nodeFlagsForChecks()",
    );
  });

  it('keeps the large young generation and the memory reducer off for SERVICE_SCALE=large only', () => {
    expect(serviceScale({})).to.equal('small');
    expect(serviceScale({ SERVICE_SCALE: 'large' })).to.equal('large');
    expect(nodeFlagsForChecks('large')).to.include.members(['--max-semi-space-size=64', '--no-memory-reducer', '--single-threaded-gc']);
    const small = nodeFlagsForChecks('small');
    expect(small).to.include('--single-threaded-gc');
    expect(small).to.not.include('--no-memory-reducer');
    const semiSpace = Number(small.find((flag) => flag.startsWith('--max-semi-space-size='))!.split('=')[1]);
    expect(semiSpace).to.be.below(64);
  });

  it('names the flags a process was started without, wherever node took them from', () => {
    const all = nodeFlagsForChecks('large');
    expect(missingNodeFlags(all, '', 'large')).to.deep.equal([]);
    expect(missingNodeFlags([], '', 'large')).to.deep.equal(all);
    const youngGeneration = all.find((flag) => flag.startsWith('--max-semi-space-size='))!;
    expect(missingNodeFlags(['--single-threaded-gc', '--no_memory_reducer'], youngGeneration, 'large')).to.deep.equal([]);
    expect(missingNodeFlags(['--single-threaded-gc'], '', 'large')).to.deep.equal(all.filter((flag) => flag !== '--single-threaded-gc'));
    expect(missingNodeFlags(nodeFlagsForChecks('small'), '', 'small')).to.deep.equal([]);
  });
});
