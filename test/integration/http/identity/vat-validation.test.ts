import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiAt, expectError } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aMember } from '../../../support/identity-fixtures';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const VIES_HOST = 'vies.vat-fixture.com';

/**
 * A loopback stand-in for the VIES REST API: answers POST /check-vat-number as VIES does (valid,
 * name, address; "---" when undisclosed; errorWrappers for a member state that is down), optionally
 * after a hook runs while the lookup is in flight.
 */
class ViesStandIn {
  readonly asked: Array<{ countryCode: string; vatNumber: string }> = [];
  during: (() => Promise<void>) | null = null;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { countryCode: string; vatNumber: string };
      this.asked.push(body);
      if (this.during) await this.during();
      res.setHeader('content-type', 'application/json');
      if (body.countryCode === 'IT') {
        res.end(
          JSON.stringify({
            actionSucceed: false,
            errorWrappers: [{ error: 'MS_UNAVAILABLE', message: 'The member state service is unavailable' }],
          }),
        );
      } else if (body.vatNumber === '123456789') {
        res.end(
          JSON.stringify({
            countryCode: body.countryCode,
            vatNumber: body.vatNumber,
            valid: true,
            name: 'Muster GmbH',
            address: 'Hauptstr. 1\n10115 Berlin',
          }),
        );
      } else {
        res.end(JSON.stringify({ countryCode: body.countryCode, vatNumber: body.vatNumber, valid: false, name: '---', address: '---' }));
      }
    });
  });
  get url(): string {
    return `http://${VIES_HOST}:${(this.server.address() as AddressInfo).port}/rest-api`;
  }
  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('POST /api/organizations/{id}/vat-id/validate (against a loopback VIES)', () => {
  const vies = new ViesStandIn();
  let service: DeliveryService;
  const api = (method: string, path: string, options: Parameters<typeof apiAt>[3] = {}) => apiAt(service.app.url, method, path, options);
  const validate = (org: { token: string; user: { organizationId: number } }, token = org.token) =>
    api('POST', `/api/organizations/${org.user.organizationId}/vat-id/validate`, { token });

  before(async () => {
    await vies.start();
    service = await aDeliveryService([VIES_HOST], { VIES_URL: vies.url });
  });
  afterEach(() => {
    vies.during = null;
  });
  after(async () => {
    await service?.stop();
    await vies.stop();
  });

  it('validates a prefixed vatId, keeps the registered name and address, and asks VIES with the number alone', async () => {
    const org = await anOrganization('vat-valid');
    expect((await api('PATCH', '/api/organization', { token: org.token, body: { vatId: 'DE 123.456.789' } })).status).to.equal(200);
    const answer = await validate(org);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({
      valid: true,
      countryCode: 'DE',
      number: '123456789',
      name: 'Muster GmbH',
      address: 'Hauptstr. 1\n10115 Berlin',
    });
    expect(vies.asked.at(-1)).to.deep.equal({ countryCode: 'DE', vatNumber: '123456789' });
    const [row] = await service.app.database.sql.query<{ vat_validation: Record<string, unknown> }>(
      sql`SELECT vat_validation FROM organizations WHERE id = ${org.user.organizationId}`,
    );
    expect(row!.vat_validation).to.include({ valid: true, name: 'Muster GmbH' });
  });

  it('takes the member state from countryCode when the vatId has no prefix (GR is EL in VIES), undisclosed details as null', async () => {
    const org = await anOrganization('vat-country');
    await api('PATCH', '/api/organization', { token: org.token, body: { vatId: '999999999', countryCode: 'GR' } });
    const answer = await validate(org);
    expect(answer.body).to.include({ valid: false, countryCode: 'EL', number: '999999999', name: null, address: null });
  });

  it('answers 422 vatIdMissing without a vatId, and 503 unavailable while the member state cannot answer', async () => {
    const org = await anOrganization('vat-missing');
    expectError(await validate(org), 422, 'vatIdMissing');
    await api('PATCH', '/api/organization', { token: org.token, body: { vatId: 'IT12345678901' } });
    expectError(await validate(org), 503, 'unavailable');
  });

  it('answers 409 vatIdChangedDuringValidation when the vatId is edited during the lookup, and stores nothing', async () => {
    const org = await anOrganization('vat-race');
    await api('PATCH', '/api/organization', { token: org.token, body: { vatId: 'DE123456789' } });
    vies.during = async () => {
      vies.during = null;
      expect((await api('PATCH', '/api/organization', { token: org.token, body: { vatId: 'DE987654321' } })).status).to.equal(200);
    };
    expectError(await validate(org), 409, 'vatIdChangedDuringValidation');
    const [row] = await service.app.database.sql.query<{ vat_validation: unknown }>(
      sql`SELECT vat_validation FROM organizations WHERE id = ${org.user.organizationId}`,
    );
    expect(row!.vat_validation).to.equal(null);
  });

  it("is for the organization's administrators (roleForbidden), hides other organizations (organizationNotFound), and allows 10 lookups an hour", async () => {
    const org = await anOrganization('vat-limits');
    await api('PATCH', '/api/organization', { token: org.token, body: { vatId: 'DE123456789' } });
    const editor = await aMember(org, 'editor');
    expectError(await validate(org, editor.token), 403, 'roleForbidden');
    const stranger = await anOrganization('vat-stranger');
    expectError(await validate(org, stranger.token), 404, 'organizationNotFound');
    for (let i = 0; i < 10; i++) expect((await validate(org)).status).to.equal(200);
    const limited = await validate(org);
    expectError(limited, 429, 'rateLimited');
    expect(limited.body.data.retryAfter).to.be.within(1, 3600);
  });
});
