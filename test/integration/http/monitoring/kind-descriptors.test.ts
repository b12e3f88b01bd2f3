import { expect } from 'chai';
import { kindOf, PER_KIND_TYPES } from '../../../../src/domain/monitoring/kinds';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { aMonitor, aMonitoredCustomer, aMonitorPackage, kindSample } from '../../../support/monitoring-fixtures';
import { wsm } from '../../../support/wsm';

/**
 * What makes a monitor kind's descriptor complete: its sample is a body the API takes, reads back
 * as sent (credentials never), and comes back through monitoring as code (export, then a plan with no
 * change, its credential a reference). A kind added to the registry is held here without an edit.
 */
describe('every monitor kind descriptor: its sample round-trips through the API and monitoring as code', () => {
  let token: string;
  let customerId: number;
  before(async () => {
    const org = await anOrganization('kind-descriptors');
    token = org.token;
    customerId = (await aMonitoredCustomer(token, { packageId: (await aMonitorPackage(token)).id })).id;
  });

  for (const type of PER_KIND_TYPES) {
    it(`${type}: created from its sample, read back with its settings and defaults, credentials write-only`, async () => {
      const kind = kindOf(type);
      const sample = kindSample(type);
      const created = await aMonitor(token, type, { customerId, ...sample });
      const read = await api('GET', `/api/monitors/${type}/${created.publicId}`, { token });
      expect(read.status).to.equal(200);
      expect(read.body).to.include({ type, hostname: sample.hostname });
      for (const field of kind.fields) {
        expect(read.body[field.name], field.name).to.deep.equal(sample[field.name] ?? field.default);
      }
      if (kind.port !== 'none') expect(read.body.effectivePort).to.equal(sample.port ?? kind.defaultPort(read.body));
      else expect(read.body).not.to.have.property('port');
      expect(read.body).not.to.have.property('credentials');
      if (kind.service) expect(read.body).to.include({ checkMode: 'protocol', hasCredentials: sample.credentials !== undefined });
    });
  }

  it('exports every kind, each credential a reference to the environment, and plans no change', async () => {
    const files = new Map<string, string>();
    const exported = await wsm(['export', '--file', 'kinds.yaml'], { token, files });
    expect(exported.code, exported.stderr).to.equal(0);
    const text = files.get('kinds.yaml')!;
    for (const type of PER_KIND_TYPES) expect(text).to.include(`kind: ${type}`);
    expect(text).not.to.include('s3cret');
    for (const type of PER_KIND_TYPES) {
      const { service } = kindOf(type);
      if (service && kindSample(type).credentials) expect(text).to.match(new RegExp(`${service.secret}: \\$\\{env:WSM_[0-9A-Z_]+\\}`));
    }
    const plan = await wsm(['plan', '--file', 'kinds.yaml', '--detailed-exitcode'], { token, files });
    expect(plan.code, plan.stdout + plan.stderr).to.equal(0);
  });
});
