import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SqlLocationRepository } from '../../../src/infrastructure/locations/sql-location.repository';
import { SqlSsoConnectionRepository } from '../../../src/infrastructure/identity/sql-sso.repositories';
import { SqlSubscriberRepository } from '../../../src/infrastructure/status-pages/sql-subscriber.repository';
import { SqlPageIncidentRepository } from '../../../src/infrastructure/status-pages/sql-page-incident.repository';
import { SsoConnection } from '../../../src/domain/identity/sso';
import { Subscriber } from '../../../src/domain/status-pages/subscriber';
import { PageIncident } from '../../../src/domain/status-pages/page-incident';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { anOrganization } from '../../support/builders';
import { api } from '../../support/http-client';
import { codeOf } from '../../support/expect-app-error';
import { testServer } from '../../support/test-server';
import { standalone } from '../../support/unit-of-work';
import { poolTx } from '../../support/pool-transaction';

const NOW = new Date('2026-12-01T00:00:00Z');
const LATER = new Date('2026-12-01T01:00:00Z');
const suffix = () => randomBytes(4).toString('hex');

/**
 * The last four saves that wrote over whatever was there (issue 62): a location, an organization's
 * SSO settings, a status-page subscriber and a page incident each name the version they read, so of
 * two writers holding the same version the second is told `conflict` and writes nothing.
 */
describe('optimistic versions: locations, SSO settings, subscribers and page incidents refuse a stale write', function () {
  this.timeout(60_000);

  async function setup() {
    const org = await anOrganization('versions');
    const app = await testServer();
    const unit = standalone(app.database.sql);
    return { org, app, unit };
  }

  async function aPage(token: string): Promise<number> {
    const slug = `versions-${suffix()}`;
    const created = await api('POST', '/api/status-pages', { token, body: { title: 'Versions', slug } });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { app } = await setup();
    const [row] = await app.database.sql.query<{ id: number }>(sql`SELECT id FROM status_pages WHERE slug = ${slug}`);
    return Number(row!.id);
  }

  it('a location renamed by one writer is a conflict for the other holding the same version', async () => {
    const { org, unit } = await setup();
    const code = `loc-${suffix()}`;
    expect((await api('POST', '/api/locations', { token: org.token, body: { code, name: 'Before' } })).status).to.equal(201);
    const locations = new SqlLocationRepository(unit);
    const [first, second] = [await locations.findByCode(code), await locations.findByCode(code)];
    first!.name = 'First writer';
    await locations.save(first!, poolTx());
    second!.name = 'Second writer';
    expect(await codeOf(locations.save(second!, poolTx()))).to.equal('conflict');
    expect(await locations.findByCode(code)).to.deep.include({ name: 'First writer', version: 2 });
  });

  it('SSO settings: saved over a version another admin replaced, or created twice, answer conflict', async () => {
    const { org, unit } = await setup();
    const connections = new SqlSsoConnectionRepository(unit);
    const settings = (clientId: string) =>
      new SsoConnection({
        organizationId: org.user.organizationId,
        issuer: 'https://idp.example.com',
        clientId,
        clientSecretSealed: 'sealed',
        allowedDomains: [`acme-${suffix()}.example`],
        defaultRole: 'readonly',
        groupClaim: null,
        groupRoles: {},
        ssoOnly: false,
        breakGlassUserId: null,
        updatedAt: NOW,
      });
    await connections.save(settings('created'), poolTx());
    expect(await codeOf(connections.save(settings('created again'), poolTx()))).to.equal('conflict');

    const [first, second] = [
      await connections.findByOrganization(org.user.organizationId),
      await connections.findByOrganization(org.user.organizationId),
    ];
    first!.clientId = 'first writer';
    await connections.save(first!, poolTx());
    second!.clientId = 'second writer';
    expect(await codeOf(connections.save(second!, poolTx()))).to.equal('conflict');
    expect(await connections.findByOrganization(org.user.organizationId)).to.deep.include({ clientId: 'first writer', version: 2 });
  });

  it('a subscriber confirmed by one writer is a conflict for the other holding the same version', async () => {
    const { org, unit } = await setup();
    const pageId = await aPage(org.token);
    const subscribers = new SqlSubscriberRepository(unit);
    const { subscriber } = await subscribers.add(
      Subscriber.email(
        { pageId, organizationId: org.user.organizationId, address: `s-${suffix()}@test.example`, componentKeys: [], token: suffix() },
        NOW,
      ),
      poolTx(),
    );
    const [first, second] = [await subscribers.findById(pageId, subscriber.id), await subscribers.findById(pageId, subscriber.id)];
    first!.confirm(LATER);
    await subscribers.save(first!, poolTx());
    second!.componentKeys = ['m-1'];
    expect(await codeOf(subscribers.save(second!, poolTx()))).to.equal('conflict');
    expect(await subscribers.findById(pageId, subscriber.id)).to.deep.include({ confirmed: true, componentKeys: [], version: 2 });
  });

  it('a page incident updated by one writer is a conflict for the other holding the same version, whose update is not written', async () => {
    const { org, unit } = await setup();
    const pageId = await aPage(org.token);
    const incidents = new SqlPageIncidentRepository(unit);
    const opened = await incidents.add(
      PageIncident.open(
        { publicId: crypto.randomUUID(), pageId, incidentId: null, incidentPublicId: null, title: 'Outage', componentKeys: [] },
        NOW,
      ),
      poolTx(),
    );
    const [first, second] = [await incidents.findByRef(pageId, opened.publicId), await incidents.findByRef(pageId, opened.publicId)];
    first!.post('identified', 'First writer', LATER);
    await incidents.save(first!, poolTx());
    second!.post('resolved', 'Second writer', LATER);
    expect(await codeOf(incidents.save(second!, poolTx()))).to.equal('conflict');
    const stored = await incidents.findByRef(pageId, opened.publicId);
    expect(stored).to.deep.include({ status: 'identified', version: 2 });
    expect(stored!.updates.map((u) => u.message)).to.deep.equal(['First writer']);
  });
});
