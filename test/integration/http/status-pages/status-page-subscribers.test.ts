import { expect } from 'chai';
import { AnnounceToSubscribers } from '../../../../src/application/status-pages/announce-to-subscribers';
import { anOrganization } from '../../../support/builders';
import { api, apiAt, expectError, rawAt } from '../../../support/http-client';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow, aResult, record } from '../../../support/results-fixtures';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { WebhookReceiver } from '../../../support/peers/webhook-receiver';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { testClock } from '../../../support/test-clock';
import { testDnsServer } from '../../../support/test-server';
import { waitFor } from '../../../support/wait-for';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MAIL_HOST = 'mail.pages-fixture.com';
const HOOK_HOST = 'hooks.pages-fixture.com';
const LOCATION = 'eu-west';
let counter = 0;
const unique = (label: string) => `${label}-${++counter}-${Date.now().toString(36)}`;

/**
 * Subscribers end to end: a visitor subscribes on the page, confirms through the link the loopback
 * SMTP server received, and is told once of an incident and once of its recovery (the outbox
 * events, through the delivery ledger and worker); one click unsubscribes.
 */
describe('Status page subscribers (loopback SMTP and webhook)', function () {
  this.timeout(30_000);
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  const receiver = new WebhookReceiver(HOOK_HOST);
  let service: DeliveryService;

  before(async () => {
    await Promise.all([smtp.start(), receiver.start()]);
    // The test clock, as the shared test server's: deliveries it enqueues are due on this service too.
    service = await aDeliveryService(
      [MAIL_HOST, HOOK_HOST],
      {
        SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
        SMTP_FROM: 'status@platform.example',
      },
      { clock: testClock },
    );
    service.worker('status-page-subscribers');
  });
  after(async () => {
    await service?.stop();
    await Promise.all([smtp.stop(), receiver.stop()]);
  });

  /** Runs the subscribers' job to the end of the outbox (other tests' events come first, in batches), as its run does. */
  const announce = async () => {
    for (;;) {
      const { events } = await service.app.container.get(AnnounceToSubscribers).execute();
      if (events === 0) return;
    }
  };
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  /** Folded header lines (a line break before whitespace) joined again. */
  const unfold = (raw: string) => raw.replace(/\r?\n[ \t]+/g, ' ');
  const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(unfold(raw))?.[1]?.trim();
  /** Quoted-printable soft line breaks (=\r\n) and =3D undone, so links read whole. */
  const plain = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

  const settled = async (organizationId: number) =>
    (
      await service.app.database.sql.query<{ n: string }>(
        sql`SELECT count(*) AS n FROM notification_deliveries WHERE organization_id = ${organizationId} AND status = 'pending'`,
      )
    )[0]!.n === '0';

  async function aPageWithMonitor() {
    const org = await anOrganization('subscribers');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { name: 'Shop', locations: [LOCATION], consecutiveChecks: 1 });
    const other = await aMonitorRow(org.user.organizationId, customerId, { name: 'Blog', locations: [LOCATION], consecutiveChecks: 1 });
    const page = await api('POST', '/api/status-pages', {
      token: org.token,
      body: {
        title: 'Acme status',
        slug: unique('acme'),
        groups: [
          {
            name: 'All',
            components: [
              { type: 'monitor', id: monitor.publicId },
              { type: 'monitor', id: other.publicId },
            ],
          },
        ],
      },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    return { org, monitor, other, page: page.body };
  }

  it("answers a subscribe identically whatever the address's state (new, pending, confirmed, unsubscribed); the mail tells the rest", async () => {
    const { page } = await aPageWithMonitor();
    const address = `${unique('state')}@customer-fixture.com`;
    const subscribe = async () => {
      const json = await apiAt(service.app.url, 'POST', `/status/${page.slug}/subscribe`, { body: { email: address } });
      const form = await apiAt(service.app.url, 'POST', `/status/${page.slug}/subscribe`, {
        rawBody: `email=${encodeURIComponent(address)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      return { json: [json.status, json.body], form: [form.status, form.text] };
    };
    const asNew = await subscribe();
    const confirmationMail = await waitFor(() => mailsTo(address)[0], { what: 'the confirmation mail', timeoutMs: 10_000 });
    const asPending = await subscribe();
    const link = /http:\/\/api\.test\.example(\/status\/[^\s]+\/confirm\?token=[0-9a-f]+)/.exec(plain(confirmationMail.raw))![1]!;
    expect((await apiAt(service.app.url, 'GET', link)).status).to.equal(200);
    const asConfirmed = await subscribe();
    const already = await waitFor(() => mailsTo(address).find((m) => subjectOf(m.raw) === 'You are subscribed to Acme status'), {
      what: 'the already-subscribed mail',
      timeoutMs: 10_000,
    });
    const stop = /http:\/\/api\.test\.example(\/status\/[^\s]+\/unsubscribe\?token=[0-9a-f]+)/.exec(plain(already!.raw))![1]!;
    expect((await apiAt(service.app.url, 'POST', stop)).status).to.equal(200);
    const asUnsubscribed = await subscribe();
    expect(asNew.json).to.deep.equal([202, { status: 'checkYourInbox' }]);
    for (const answer of [asPending, asConfirmed, asUnsubscribed]) expect(answer).to.deep.equal(asNew);
  });

  it('confirms an e-mail subscriber (double opt-in) who then receives exactly one message about an incident and one on recovery', async () => {
    const { org, monitor, page } = await aPageWithMonitor();
    const address = `${unique('visitor')}@customer-fixture.com`;
    const lazy = `${unique('lazy')}@customer-fixture.com`;
    const subscribed = await apiAt(service.app.url, 'POST', `/status/${page.slug}/subscribe`, {
      rawBody: `email=${encodeURIComponent(address)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(subscribed.status).to.equal(202);
    expect(subscribed.text).to.include('Check your inbox');
    expect((await apiAt(service.app.url, 'POST', `/status/${page.slug}/subscribe`, { body: { email: lazy } })).body).to.deep.equal({
      status: 'checkYourInbox',
    });

    const confirmationMail = await waitFor(() => mailsTo(address)[0], { what: 'the confirmation mail', timeoutMs: 10_000 });
    expect(subjectOf(confirmationMail.raw)).to.equal('Confirm your subscription to Acme status');
    const link = /http:\/\/api\.test\.example(\/status\/[^\s]+\/confirm\?token=[0-9a-f]+)/.exec(plain(confirmationMail.raw))?.[1];
    expect(link, plain(confirmationMail.raw)).to.be.a('string');
    await waitFor(() => mailsTo(lazy)[0], { what: 'the second confirmation mail' });
    // Nothing is told before the confirmation: an incident now would reach nobody.
    const confirmed = await apiAt(service.app.url, 'GET', link!);
    expect(confirmed.status).to.equal(200);
    expect(confirmed.text).to.include('Subscribed');
    const listed = await api('GET', `/api/status-pages/${page.id}/subscribers`, { token: org.token });
    expect(listed.body.items.map((s: { address: string; confirmed: boolean }) => [s.address, s.confirmed])).to.deep.equal([
      [address, true],
      [lazy, false],
    ]);

    await record(monitor, LOCATION, aResult('down', testClock.now()));
    await announce();
    await announce(); // a second run finds nothing new
    const incidentMail = await waitFor(() => mailsTo(address)[1], { what: 'the incident mail', timeoutMs: 10_000 });
    expect(subjectOf(incidentMail.raw)).to.match(/^\[Acme status\] Incident: /);
    expect(unfold(incidentMail.raw)).to.match(
      /^List-Unsubscribe: <http:\/\/api\.test\.example\/status\/[^>]+\/unsubscribe\?token=[0-9a-f]+>$/m,
    );
    expect(unfold(incidentMail.raw)).to.match(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    testClock.advance(60_000);
    await record(monitor, LOCATION, aResult('up', testClock.now()));
    await announce();
    const recoveryMail = await waitFor(() => mailsTo(address)[2], { what: 'the recovery mail', timeoutMs: 10_000 });
    expect(subjectOf(recoveryMail.raw)).to.match(/^\[Acme status\] Resolved: /);
    await announce();
    await waitFor(() => settled(org.user.organizationId), { what: 'every delivery settled' });
    expect(mailsTo(address).map((m) => subjectOf(m.raw)!.replace(/:.*$/, ''))).to.deep.equal([
      'Confirm your subscription to Acme status',
      '[Acme status] Incident',
      '[Acme status] Resolved',
    ]);
    expect(mailsTo(lazy), 'the unconfirmed subscriber only got its confirmation').to.have.length(1);

    // One click (RFC 8058) on the List-Unsubscribe target.
    const unsubscribe = /<http:\/\/api\.test\.example([^>]+)>/.exec(/^List-Unsubscribe: (.*)$/m.exec(unfold(recoveryMail.raw))![1]!)![1]!;
    const gone = await apiAt(service.app.url, 'POST', unsubscribe, {
      rawBody: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(gone.status).to.equal(200);
    expect(
      (await api('GET', `/api/status-pages/${page.id}/subscribers`, { token: org.token })).body.items.map(
        (s: { address: string }) => s.address,
      ),
    ).to.deep.equal([lazy]);
    expectError(await apiAt(service.app.url, 'POST', unsubscribe), 404, 'subscriberNotFound');
  });

  it("on the page's custom domain: subscribes, confirms and unsubscribes there, and messages link to that domain", async () => {
    const { org, monitor, page } = await aPageWithMonitor();
    const hostname = `${unique('status')}.acme-brand.com`;
    const claimed = await api('POST', '/api/custom-domains', {
      token: org.token,
      body: { hostname, kind: 'statusPage', statusPageId: page.id },
    });
    expect(claimed.status, JSON.stringify(claimed.body)).to.equal(201);
    (await testDnsServer()).set(claimed.body.verification.recordName, { TXT: [claimed.body.verification.recordValue] });
    expect((await api('POST', `/api/custom-domains/${claimed.body.id}/activate`, { token: org.token })).status).to.equal(200);
    const at = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
      rawAt(service.app.url, method, path, { host: hostname, ...headers }, body);

    const form = `email=${encodeURIComponent(`${unique('visitor')}@example.com`)}`;
    const address = decodeURIComponent(form.slice('email='.length));
    const home = await at('GET', '/');
    expect(home.text).to.include('action="/subscribe"');
    const subscribed = await at(
      'POST',
      '/subscribe',
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(form.length) },
      form,
    );
    expect(subscribed.status).to.equal(202);
    expect(subscribed.text).to.include('Check your inbox');
    const confirmationMail = await waitFor(() => mailsTo(address)[0], { what: 'the confirmation mail', timeoutMs: 10_000 });
    const confirm = new RegExp(`https://${hostname.replace(/\./g, '\\.')}(/confirm\\?token=[0-9a-f]+)\\s`).exec(
      plain(confirmationMail.raw),
    )?.[1];
    expect(confirm, plain(confirmationMail.raw)).to.be.a('string');
    const confirmed = await at('GET', confirm!);
    expect(confirmed.status).to.equal(200);
    expect(confirmed.text).to.include('Subscribed');

    await record(monitor, LOCATION, aResult('down', testClock.now()));
    await announce();
    const incidentMail = await waitFor(() => mailsTo(address)[1], { what: 'the incident mail', timeoutMs: 10_000 });
    expect(plain(incidentMail.raw)).to.include(`Current status: https://${hostname}\r\n`);
    const unsubscribe = new RegExp(
      `^List-Unsubscribe: <https://${hostname.replace(/\./g, '\\.')}(/unsubscribe\\?token=[0-9a-f]+)>$`,
      'm',
    ).exec(unfold(incidentMail.raw))?.[1];
    expect(unsubscribe, unfold(incidentMail.raw)).to.be.a('string');
    const button = await at('GET', unsubscribe!);
    expect(button.text).to.include(`action="${unsubscribe!}"`);
    const oneClick = 'List-Unsubscribe=One-Click';
    const gone = await at(
      'POST',
      unsubscribe!,
      { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(oneClick.length) },
      oneClick,
    );
    expect(gone.status).to.equal(200);
    expect(gone.text).to.include('Unsubscribed');
    expect((await api('GET', `/api/status-pages/${page.id}/subscribers`, { token: org.token })).body.items).to.deep.equal([]);
    expectError(await at('POST', unsubscribe!), 404, 'subscriberNotFound');
  });

  it('tells a webhook subscriber of the components it follows only, and of incident updates posted on the page', async () => {
    const { org, monitor, other, page } = await aPageWithMonitor();
    const added = await api('POST', `/api/status-pages/${page.id}/subscribers`, {
      token: org.token,
      body: { channel: 'webhook', url: receiver.url(`/${unique('hook')}`), componentIds: [other.publicId] },
    });
    expect(added.status, JSON.stringify(added.body)).to.equal(201);
    expect(added.body).to.deep.include({ channel: 'webhook', confirmed: true, componentIds: [other.publicId] });
    expect(added.body.webhookSecret).to.match(/^whsec_/);
    const path = new URL(added.body.address).pathname;

    await record(monitor, LOCATION, aResult('down', testClock.now()));
    await announce();
    await record(other, LOCATION, aResult('down', testClock.now()));
    await announce();
    const told = await api('POST', `/api/status-pages/${page.id}/incidents`, {
      token: org.token,
      body: { title: 'Blog outage', message: 'Our host is down.', componentIds: [other.publicId] },
    });
    expect(told.status).to.equal(201);
    await waitFor(() => receiver.at(path).length >= 2, { what: 'two webhook deliveries', timeoutMs: 10_000 });
    await waitFor(() => settled(org.user.organizationId), { what: 'every delivery settled' });
    expect(receiver.at(path), 'nothing about the component it does not follow').to.have.length(2);
    const events = receiver.at(path).map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event).sort()).to.deep.equal(['statusPage.incidentOpened', 'statusPage.incidentUpdate']);
    expect(events.find((e) => e.event === 'statusPage.incidentUpdate').data.update).to.include({
      status: 'investigating',
      message: 'Our host is down.',
    });
    expect(receiver.at(path)[0]!.headers['x-webhook-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('answers invalidSubscriberId for an id that is not a positive integer, and subscriberNotFound for one missing or on another page', async () => {
    const { org, page } = await aPageWithMonitor();
    const second = await api('POST', '/api/status-pages', { token: org.token, body: { title: 'Second', slug: unique('second') } });
    const added = await api('POST', `/api/status-pages/${second.body.id}/subscribers`, {
      token: org.token,
      body: { channel: 'webhook', url: receiver.url('/second') },
    });
    expectError(await api('DELETE', `/api/status-pages/${page.id}/subscribers/abc`, { token: org.token }), 400, 'invalidSubscriberId');
    expectError(await api('DELETE', `/api/status-pages/${page.id}/subscribers/0`, { token: org.token }), 400, 'invalidSubscriberId');
    expectError(
      await api('DELETE', `/api/status-pages/${page.id}/subscribers/${added.body.id}`, { token: org.token }),
      404,
      'subscriberNotFound',
    );
    expectError(await api('DELETE', `/api/status-pages/${page.id}/subscribers/999999999`, { token: org.token }), 404, 'subscriberNotFound');
    const removed = await api('DELETE', `/api/status-pages/${second.body.id}/subscribers/${added.body.id}`, { token: org.token });
    expect(removed.body).to.deep.equal({ success: true, id: added.body.id });
  });
});
