import { expect } from 'chai';
import { anOrganization } from '../../support/builders';
import { api } from '../../support/http-client';
import { aWebsite } from '../../support/monitoring-fixtures';
import { testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';

/**
 * An organization deleted takes its incidents, outbox events and live events with it, though
 * those tables hold no foreign key to organizations (migration 20270330110000): the incidents go
 * with their customers, the events through the statement trigger on organizations; another
 * organization's rows stay.
 */
describe('an organization deleted takes its incidents and events with it', function () {
  this.timeout(60_000);

  async function anOrganizationWithAnIncident(label: string) {
    const org = await anOrganization(label);
    const customer = await api('POST', '/api/customers', {
      token: org.token,
      body: { name: `${label} customer`, email: `ops@${label}.test` },
    });
    const site = await aWebsite().forCustomer(customer.body.customer.id).named(`${label} site`).paused().create(org.token);
    const opened = await api('POST', '/api/incidents', { token: org.token, body: { monitorId: site.publicId, title: `${label} is down` } });
    expect(opened.status).to.equal(201);
    return org.user.organizationId;
  }

  it('leaves none of its incidents, outbox events or live events, and every row of another organization', async () => {
    const app = await testServer();
    const [gone, kept] = [await anOrganizationWithAnIncident('deleted-org'), await anOrganizationWithAnIncident('kept-org')];
    const rowsOf = async (organizationId: number) => {
      const [row] = await app.database.sql.query<{ incidents: number; outbox: number; live: number }>(
        sql`SELECT (SELECT count(*)::int FROM incidents WHERE organization_id = ${organizationId}) AS incidents,
                   (SELECT count(*)::int FROM notification_outbox WHERE organization_id = ${organizationId}) AS outbox,
                   (SELECT count(*)::int FROM live_events WHERE organization_id = ${organizationId}) AS live`,
      );
      return row!;
    };
    const before = await rowsOf(gone);
    expect(before.incidents).to.equal(1);
    expect(before.outbox, 'the incident opened is in the outbox').to.be.at.least(1);
    expect(before.live, 'and in the live event log').to.be.at.least(1);
    const keptBefore = await rowsOf(kept);

    await app.database.sql.query(sql`DELETE FROM organizations WHERE id = ${gone}`);
    expect(await rowsOf(gone)).to.deep.equal({ incidents: 0, outbox: 0, live: 0 });
    expect(await rowsOf(kept)).to.deep.equal(keptBefore);
  });
});
