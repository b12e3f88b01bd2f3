import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, clearOfRollups, record, type MonitorRow } from '../../../support/results-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { testClock } from '../../../support/test-clock';
import { waitFor } from '../../../support/wait-for';
import { EvaluateBurnAlerts } from '../../../../src/application/service-levels/evaluate-burn-alerts';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.slo-fixture.com';
const MINUTE = 60_000;

/**
 * Burn-rate alerts end to end: results recorded through the recording path, the evaluation the
 * job runs, the outbox, the notification worker and a loopback webhook. Target 99 % (a 1 % budget):
 * 12 of the last 120 minutes down burns 20x over the last hour and 10x over the last six (both rules
 * fire); 6 minutes down burns 10x and 5x, under both factors though its short windows burn at 100x.
 */
describe('burn-rate alerts (recording path, evaluation, outbox, loopback webhook)', () => {
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;

  before(async () => {
    await receiver.start();
    service = await aDeliveryService([HOOK_HOST], {}, { clock: testClock });
    service.worker('slo-burn');
  });
  after(async () => {
    await service?.stop();
    await receiver.stop();
  });

  const evaluate = () => service.app.container.get(EvaluateBurnAlerts).execute();

  async function minutes(monitor: MonitorRow, start: Date, from: number, to: number, down: (m: number) => boolean) {
    for (let m = from; m < to; m += 1)
      await record(monitor, 'eu', aResult(down(m) ? 'down' : 'up', new Date(start.getTime() + m * MINUTE)));
  }

  it('tells a breach once when both windows of a rule cross, nothing just under, and its end once', async () => {
    const org = await anOrganization('slo-burn');
    const customerId = await aCustomerRow(org.user.organizationId);
    const burning = await aMonitorRow(org.user.organizationId, customerId, { name: 'Burning', consecutiveChecks: 1000 });
    const under = await aMonitorRow(org.user.organizationId, customerId, { name: 'Under', consecutiveChecks: 1000 });
    const path = `/slo-${org.user.organizationId}`;
    const channel = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: 'SLO hook', type: 'webhook', config: { url: receiver.url(path) }, events: ['slo.burning', 'slo.recovered'] },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    const objectiveOf = async (monitor: MonitorRow) => {
      const created = await api('POST', '/api/service-levels', {
        token: org.token,
        body: { name: monitor === burning ? 'Burning' : 'Under', target: 99, subject: { type: 'website', websiteId: monitor.publicId } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      return created.body.id as string;
    };
    const burningId = await objectiveOf(burning);
    const underId = await objectiveOf(under);
    await clearOfRollups(7 * 60 * MINUTE);
    const start = new Date(testClock.now().getTime() - 120 * MINUTE);
    await minutes(burning, start, 0, 120, (m) => m >= 108);
    await minutes(under, start, 0, 120, (m) => m >= 114);

    const statusOf = async (id: string) => (await api('GET', `/api/service-levels/${id}/status`, { token: org.token })).body;
    const underStatus = await statusOf(underId);
    expect(underStatus.burnRates['5m']).to.equal(100);
    expect(underStatus.burnRates['1h']).to.be.within(10, 11.7);
    expect(underStatus.burnRates['6h']).to.be.within(5, 5.8);
    expect(underStatus.firing).to.deep.equal([]);
    const burningStatus = await statusOf(burningId);
    expect(burningStatus.burnRates['1h']).to.be.within(20, 21.7);
    expect(burningStatus.burnRates['6h']).to.be.within(10, 10.8);
    expect(burningStatus.firing).to.deep.equal(['fast', 'slow']);

    // Every objective of the shared database is evaluated: this organization's events are counted in its outbox.
    const told = async () =>
      (
        await service.app.database.sql.query<{ kind: string }>(
          sql`SELECT kind FROM notification_outbox WHERE organization_id = ${org.user.organizationId} AND kind LIKE 'slo.%' ORDER BY id`,
        )
      ).map((r) => r.kind);
    expect((await evaluate()).burning).to.be.at.least(1);
    await evaluate();
    expect(await told(), 'a breach is told once, not at every evaluation').to.deep.equal(['slo.burning']);
    await waitFor(() => receiver.at(path).length >= 1, { what: 'the burn alert' });
    const alert = JSON.parse(receiver.at(path)[0]!.body);
    expect(alert).to.deep.include({ event: 'slo.burning', summary: 'Error budget burning fast: Burning (target 99 %)' });
    expect(alert.monitor).to.deep.equal({ id: burning.publicId });
    expect(alert.data).to.deep.include({
      objectiveId: burningId,
      name: 'Burning',
      target: 99,
      window: 'rolling30d',
      rules: ['fast', 'slow'],
    });
    expect(alert.data.budgetLeftPercent).to.be.lessThan(0);
    expect((await api('GET', `/api/service-levels/${burningId}`, { token: org.token })).body.burnState).to.equal('burning');
    expect((await api('GET', `/api/service-levels/${underId}`, { token: org.token })).body.burnState).to.equal('ok');

    // 31 good minutes clear both short windows (the long ones still burn): the breach is over.
    await minutes(burning, start, 120, 151, () => false);
    testClock.advance(31 * MINUTE);
    expect((await evaluate()).recovered).to.be.at.least(1);
    await evaluate();
    expect(await told(), 'its end is told once').to.deep.equal(['slo.burning', 'slo.recovered']);
    await waitFor(() => receiver.at(path).length >= 2, { what: 'the recovery' });
    const both = receiver.at(path);
    expect(JSON.parse(both[1]!.body)).to.deep.include({ event: 'slo.recovered' });
    expect(receiver.at(path).map((r) => JSON.parse(r.body).data.objectiveId)).to.deep.equal([burningId, burningId]);
  });
});
