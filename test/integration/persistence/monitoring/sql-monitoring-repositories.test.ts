import { poolTx } from '../../../support/pool-transaction';
import { expect } from 'chai';
import { organizationScope } from '../../../../src/domain/shared/tenant-scope';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../../src/application/shared/transaction';
import {
  CHANGE_REQUEST_REPOSITORY,
  MONITOR_REPOSITORY,
  TAG_REPOSITORY,
  type ChangeRequestRepository,
  type MonitorRepository,
  type TagRepository,
} from '../../../../src/application/monitoring/ports';
import { anOrganization } from '../../../support/builders';
import { aCustomerToken } from '../../../support/identity-fixtures';
import { aMonitoredCustomer, aTag, aWebsite, storedMonitor } from '../../../support/monitoring-fixtures';
import { api } from '../../../support/http-client';
import { codeOf } from '../../../support/expect-app-error';
import { testServer } from '../../../support/test-server';

const LATER = new Date('2026-12-01T00:00:00Z');

/**
 * Monitoring's repositories on the sql kit: each save names the version it read, so of two writers
 * holding the same version the second is told `conflict` and writes nothing; the mappers read back
 * what they wrote; a website's save renders its stored document in the same transaction and never
 * writes back the time of a ping it did not make.
 */
describe("monitoring's sql repositories (optimistic versions, mappers, documents)", () => {
  async function setup() {
    const org = await anOrganization('monitoring-sql');
    const app = await testServer();
    const customer = await aMonitoredCustomer(org.token);
    // What a request has: a unit of work of its own, which the runner's transactions start from.
    const inRequest = <T>(work: () => Promise<T>) => work();
    return {
      org,
      customer,
      inRequest,
      scope: organizationScope(org.user.organizationId),
      monitors: app.container.get<MonitorRepository>(MONITOR_REPOSITORY),
      tags: app.container.get<TagRepository>(TAG_REPOSITORY),
      requests: app.container.get<ChangeRequestRepository>(CHANGE_REQUEST_REPOSITORY),
      transactions: app.container.get<TransactionRunner>(TRANSACTION_RUNNER),
    };
  }

  it('a website saved by one writer is a conflict for the other; a save keeps a later ping and renders the document', async () => {
    const { org, customer, scope, monitors, inRequest, transactions } = await setup();
    const created = await aWebsite().forCustomer(customer.id).heartbeat(60).create(org.token);
    const [first, second] = [
      await monitors.findByRef(scope, 'website', created.publicId),
      await monitors.findByRef(scope, 'website', created.publicId),
    ];
    expect(first).to.deep.include({ version: 1, checkInterval: 60, monitoringType: 'heartbeat', lastHeartbeatAt: null, dependsOnIds: [] });
    expect(first!.locations).to.deep.equal(second!.locations);

    expect((await api('POST', `/api/heartbeats/${created.heartbeatToken}`)).status).to.be.within(200, 204);
    first!.apply({ ...first!.state(), name: 'First writer' }, LATER);
    await inRequest(() => transactions.run((tx) => monitors.save(first!, tx)));
    second!.apply({ ...second!.state(), name: 'Second writer' }, LATER);
    expect(await codeOf(inRequest(() => monitors.save(second!, poolTx())))).to.equal('conflict');

    const stored = await monitors.findByRef(scope, 'website', created.publicId);
    expect(stored).to.deep.include({ name: 'First writer', version: 2, heartbeatToken: created.heartbeatToken });
    expect(stored!.updatedAt.toISOString()).to.equal(LATER.toISOString());
    expect(stored!.lastHeartbeatAt, 'the ping made after the copy was read').to.be.an.instanceOf(Date);
    const row = await storedMonitor(created.publicId);
    expect(JSON.parse(row.document as string)).to.include({ name: 'First writer' });
  });

  it('a tag renamed by one writer is a conflict for the other; a change request too, and a page past the last has the total', async () => {
    const { org, customer, scope, tags, requests, inRequest } = await setup();
    const tag = await aTag(org.token, { customerId: customer.id });
    const [t1, t2] = [await tags.findByRef(scope, tag.publicId), await tags.findByRef(scope, tag.publicId)];
    expect(t1).to.deep.include({ version: 1, customerId: customer.id, color: '#3B82F6' });
    t1!.update({ name: 'first-writer' }, LATER);
    await inRequest(() => tags.save(t1!, poolTx()));
    t2!.update({ name: 'second-writer' }, LATER);
    expect(await codeOf(inRequest(() => tags.save(t2!, poolTx())))).to.equal('conflict');
    expect(await tags.findByRef(scope, tag.publicId)).to.deep.include({ name: 'first-writer', version: 2 });

    const website = await aWebsite(org.token, { customerId: customer.id });
    const filed = await api('POST', `/api/websites/${website.publicId}/change-requests`, {
      token: await aCustomerToken(org.token, customer.id),
      body: { changes: { name: 'Please rename' } },
    });
    expect(filed.status, filed.text).to.equal(201);
    const [r1, r2] = [await requests.findByRef(scope, filed.body.publicId), await requests.findByRef(scope, filed.body.publicId)];
    expect(r1).to.deep.include({ version: 1, status: 'open', monitorId: website.id, decidedAt: null });
    expect(r1!.changes).to.deep.equal({ name: 'Please rename' });
    r1!.settle('rejected', org.user.id, 'no', LATER);
    await requests.save(r1!, poolTx());
    r2!.settle('approved', org.user.id, null, LATER);
    expect(await codeOf(requests.save(r2!, poolTx()))).to.equal('conflict');
    const settled = await requests.findByRef(scope, filed.body.publicId);
    expect(settled).to.deep.include({ status: 'rejected', decisionNote: 'no', version: 2 });
    expect(settled!.decidedAt!.toISOString()).to.equal(LATER.toISOString());

    const past = await requests.list(scope, { customerId: customer.publicId }, { page: 5, perPage: 10 });
    expect(past).to.deep.equal({ items: [], total: 1 });
  });
});
