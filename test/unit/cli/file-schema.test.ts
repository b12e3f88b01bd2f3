import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { MONITOR_KINDS } from '../../../src/domain/monitoring/monitor-kind';
import { fileJsonSchema } from '../../../src/interfaces/cli/file-schema';
import { FileError, loadFile } from '../../../src/interfaces/cli/file-loader';

describe('wsm file: schema and loading', () => {
  it('ships the JSON Schema generated from the zod schemas (regenerate: npx wsm schema > schemas/wsm-file.schema.json)', () => {
    const shipped = JSON.parse(readFileSync(path.join(__dirname, '../../../schemas/wsm-file.schema.json'), 'utf8'));
    expect(shipped).to.deep.equal(JSON.parse(JSON.stringify(fileJsonSchema())));
    const monitor = shipped.properties.monitors.items;
    expect(monitor.oneOf ?? monitor.anyOf).to.have.length(MONITOR_KINDS.length);
  });

  it('loads a valid file, and tells where each entry is', () => {
    const file = loadFile('f.yaml', 'version: 1\n\nmonitors:\n  - key: a\n    kind: icmp\n    hostname: h.test\n');
    expect(file.content.monitors![0]).to.deep.include({ key: 'a', kind: 'icmp', hostname: 'h.test' });
    expect(file.where(['monitors', 0])).to.equal('f.yaml:4');
    expect(file.where(['monitors', 0, 'hostname'])).to.equal('f.yaml:6');
    expect(file.where(['monitors', 0, 'port'])).to.equal('f.yaml:4');
  });

  it('refuses a missing required field at its entry, and a bad key at its line', () => {
    const refusal = (text: string) => {
      try {
        loadFile('f.yaml', text);
      } catch (error) {
        return (error as FileError).problems;
      }
      throw new Error('accepted');
    };
    expect(refusal('monitors: []\n')).to.deep.equal(['f.yaml:1: version: Invalid input: expected 1']);
    expect(refusal('version: 1\nmonitors:\n  - kind: icmp\n    key: "no spaces"\n    hostname: h\n')[0]).to.match(
      /^f\.yaml:4: monitors\[0\]\.key: /,
    );
    expect(refusal('version: 1\ntags:\n  - name: T\n')).to.deep.equal([
      'f.yaml:3: tags[0].color: Invalid option: expected one of "#6B7280"|"#EF4444"|"#F97316"|"#F59E0B"|"#84CC16"|"#10B981"|"#14B8A6"|"#06B6D4"|"#3B82F6"|"#6366F1"|"#8B5CF6"|"#EC4899"',
    ]);
  });
});
