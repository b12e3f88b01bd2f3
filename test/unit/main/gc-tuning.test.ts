import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { missingNodeFlags, nodeFlagsForChecks } from '../../../src/main/gc-tuning';

describe('garbage-collector settings of a check process', () => {
  it("are the flags `npm start` gives node (the young generation and the collector's threads are set at start)", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = pkg.scripts.start!.split(/\s+/);
    expect(nodeFlagsForChecks()).to.not.be.empty;
    for (const flag of nodeFlagsForChecks()) expect(start).to.include(flag);
  });

  it('names the flags a process was started without, wherever node took them from', () => {
    const all = nodeFlagsForChecks();
    expect(missingNodeFlags(all, '')).to.deep.equal([]);
    expect(missingNodeFlags([], '')).to.deep.equal(all);
    const youngGeneration = all.find((flag) => flag.startsWith('--max-semi-space-size='))!;
    expect(missingNodeFlags(['--single-threaded-gc', '--no_memory_reducer'], youngGeneration)).to.deep.equal([]);
    expect(missingNodeFlags(['--single-threaded-gc'], '')).to.deep.equal(all.filter((flag) => flag !== '--single-threaded-gc'));
  });
});
