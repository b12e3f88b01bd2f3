import { expect } from 'chai';
import { AlertSource, DEFAULT_GENERIC_MAPPING } from '../../../../src/domain/incident-management/alert-source';

const CREATED = new Date('2026-12-01T00:00:00Z');
const LATER = new Date('2026-12-02T00:00:00Z');
const aSource = () =>
  new AlertSource({
    publicId: 'a1b2c3d4-0000-4000-8000-000000000001',
    organizationId: 1,
    name: 'Grafana',
    kind: 'grafana',
    routing: { teamId: null, escalationPolicyId: null, customerId: null },
    tokenHash: 'digest',
    tokenHint: 'abcd',
    createdByUserId: null,
    now: CREATED,
  });

describe('an alert source', () => {
  it('changes only what a change names, stamped with its time', () => {
    const source = aSource();
    source.change({ name: 'Grafana prod' }, LATER);
    expect(source).to.include({ name: 'Grafana prod', updatedAt: LATER });
    expect(source.mapping).to.deep.equal(DEFAULT_GENERIC_MAPPING);
    const routing = { teamId: 't1', escalationPolicyId: 'p1', customerId: 4 };
    source.change({ routing }, LATER);
    expect(source.routing).to.deep.equal(routing);
    expect(source.name).to.equal('Grafana prod');
  });

  it('namespaces the dedup keys of its alerts by its public id', () => {
    expect(aSource().dedupKeyFor('disk-full')).to.equal('a1b2c3d4-0000-4000-8000-000000000001:disk-full');
  });
});
