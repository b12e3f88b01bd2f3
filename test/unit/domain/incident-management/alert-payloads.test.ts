import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { alertsOf, severityOf } from '../../../../src/domain/incident-management/alert-payloads';
import { DEFAULT_GENERIC_MAPPING } from '../../../../src/domain/incident-management/alert-source';
import { codeOf } from '../../../support/expect-app-error';

const fixture = (name: string): unknown => JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../fixtures', name), 'utf8'));

describe('alert payloads', () => {
  it('fans an Alertmanager notification out by fingerprint, each alert with its own status', () => {
    const alerts = alertsOf('alertmanager', fixture('alertmanager/one-resolved.json'), DEFAULT_GENERIC_MAPPING);
    expect(alerts.map((a) => [a.action, a.key, a.summary, a.severity, a.source])).to.deep.equal([
      ['resolve', '8c77d5865e910658', 'Disk almost full on db-1', 'critical', 'db-1:9100'],
      ['trigger', '55b97254facb078e', 'Disk almost full on db-2', 'warning', 'db-2:9100'],
    ]);
  });
  it("reads Grafana's documented payload the same way", () => {
    const alerts = alertsOf('grafana', fixture('grafana/firing.json'), DEFAULT_GENERIC_MAPPING);
    expect(alerts.map((a) => [a.action, a.key])).to.deep.equal([
      ['trigger', 'c6eadffa33fcdf37'],
      ['trigger', 'bc97ff14869b13e3'],
    ]);
  });
  it('refuses a payload of another shape with validationFailed', () => {
    expect(codeOf(() => alertsOf('alertmanager', { hello: 1 }, DEFAULT_GENERIC_MAPPING))).to.equal('validationFailed');
    expect(codeOf(() => alertsOf('grafana', { alerts: [{ status: 'pending' }] }, DEFAULT_GENERIC_MAPPING))).to.equal('validationFailed');
    expect(codeOf(() => alertsOf('generic', { status: 'resolved' }, DEFAULT_GENERIC_MAPPING))).to.equal('validationFailed');
  });
  it('maps severity words, counting unknown ones as critical', () => {
    expect(['warn', 'P2', 'info', 'page', 'whatever', undefined].map(severityOf)).to.deep.equal([
      'warning',
      'error',
      'info',
      'critical',
      'critical',
      'critical',
    ]);
  });
});
