import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { nodeFlagsForChecks } from '../../../src/main/gc-tuning';

describe('garbage-collector settings of a check process', () => {
  it('are the flags `npm start` gives node (the young generation and the collector\'s threads are set at start)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const start = pkg.scripts.start!.split(/\s+/);
    expect(nodeFlagsForChecks()).to.not.be.empty;
    for (const flag of nodeFlagsForChecks()) expect(start).to.include(flag);
  });
});
