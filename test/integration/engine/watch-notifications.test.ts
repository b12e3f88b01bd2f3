import { expect } from 'chai';
import { RunWatches } from '../../../src/application/watches/run-watches';
import { WATCH_MAINTENANCE, WATCH_TARGETS, type WatchMaintenance, type WatchTargets } from '../../../src/application/watches/ports';
import { WATCH_RESULT_STORE, type WatchResultStore } from '../../../src/application/tenancy/ports';
import { DIRECT_DELIVERIES, type DirectDeliveries } from '../../../src/application/notifications/ports';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../../src/application/shared/transaction';
import { RunCheck } from '../../../src/application/checks/run-check';
import { api } from '../../support/http-client';
import { anOrganization } from '../../support/builders';
import { aDeliveryService, type DeliveryService } from '../../support/delivery-service';
import { useLoopbackChecks } from '../../support/loopback-checks';
import { ManualClock } from '../../support/manual-clock';
import { DnsPeer } from '../../support/peers/dns-peer';
import { RdapPeer } from '../../support/peers/rdap-peer';
import { SmtpPeer } from '../../support/peers/smtp-peer';
import { testCertificates } from '../../support/peers/certificates';
import { WebhookReceiver } from '../../support/peers/webhook-receiver';
import { testServer } from '../../support/test-server';
import { waitFor } from '../../support/wait-for';
import { sql } from '../../../src/infrastructure/persistence/sql';

const HOOK_HOST = 'hooks.watch-fixture.com';
const MAIL_HOST = 'mail.watch-fixture.com';
const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The watch sweep end to end: a loopback registry and blocklist zone, the real sweep recording
 * results and their events in one statement, the delivery ledger's worker sending them to a
 * loopback webhook receiver, and the lastNotified* timestamps read back through the API.
 */
describe('watch events reach channels, and lastNotified* follows successful deliveries', () => {
  const suffix = `${Date.now() % 100000}`;
  const dns = new DnsPeer({});
  const rdap = new RdapPeer();
  const receiver = new WebhookReceiver(HOOK_HOST);
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  // The sweep's own clock, so a test can move to a record's next turn without moving the shared
  // server's; a fresh one per test, as direct messages are due at the sweep's time.
  let clock = ManualClock.followingRealTime();
  beforeEach(() => {
    clock = ManualClock.followingRealTime();
  });
  let service: DeliveryService;

  before(async () => {
    await Promise.all([dns.start(), rdap.start(), receiver.start(), smtp.start()]);
    await useLoopbackChecks({
      dnsServers: [dns.address],
      dnsblZones: [{ zone: 'bl.test', name: 'Test BL', delistUrl: 'https://bl.test/delist' }],
      rdapBootstrapUrl: rdap.bootstrapUrl,
      whoisServer: rdap.whoisServer,
    });
    service = await aDeliveryService([HOOK_HOST, MAIL_HOST], {
      NOTIFY_MAX_ATTEMPTS: '3',
      NOTIFY_RETRY_MAX_MS: '100',
      SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
      SMTP_FROM: 'alerts@platform.example',
    });
    service.worker('watch-events');
  });
  after(async () => {
    await service?.stop();
    await Promise.all([dns.stop(), rdap.stop(), receiver.stop(), smtp.stop()]);
  });

  async function sweep() {
    const { container } = await testServer();
    const runCheck = container.get(RunCheck);
    const watches = new RunWatches(
      container.get<WatchTargets>(WATCH_TARGETS),
      container.get<WatchResultStore>(WATCH_RESULT_STORE),
      (request) => runCheck.execute(request),
      clock,
      {
        maintenance: container.get<WatchMaintenance>(WATCH_MAINTENANCE),
        directs: container.get<DirectDeliveries>(DIRECT_DELIVERIES),
        transactions: container.get<TransactionRunner>(TRANSACTION_RUNNER),
      },
    );
    return watches.execute();
  }

  /** An organization with a customer and a webhook channel (all events) to `path`. */
  async function aSetup(label: string, path: string) {
    const org = await anOrganization(label);
    const customer = await api('POST', '/api/customers', { token: org.token, body: { name: label, email: `ops@${label}.example` } });
    expect(customer.status).to.equal(200);
    const channel = await api('POST', '/api/notification-channels', {
      token: org.token,
      body: { name: label, type: 'webhook', config: { url: receiver.url(path) } },
    });
    expect(channel.status, JSON.stringify(channel.body)).to.equal(201);
    return { org, customerId: customer.body.customer.publicId as string, channel: channel.body };
  }

  async function aDomainExpiringIn(
    setup: Awaited<ReturnType<typeof aSetup>>,
    name: string,
    days: number,
    extra: Record<string, unknown> = {},
  ) {
    rdap.rdapDomains.set(name, {
      expiresAt: new Date(clock.now().getTime() + days * DAY + HOUR).toISOString(),
      registrar: 'Example Registrar',
    });
    const created = await api('POST', `/api/customers/${setup.customerId}/domains`, {
      token: setup.org.token,
      body: { label: name, domainName: name, expiryWarningDays: 30, expiryErrorDays: 3, ...extra },
    });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    return created.body.publicId as string;
  }

  const deliveriesOf = async (channelId: string) =>
    await service.app.database.sql.query<{ event: string; status: string }>(
      sql`SELECT event, status FROM notification_deliveries WHERE channel_public_id = ${channelId} ORDER BY created_at`,
    );
  const expiryOf = async (token: string, id: string) => (await api('GET', `/api/customer-domains/${id}`, { token })).body.expiry;
  const dnsblOf = async (token: string, id: string) => (await api('GET', `/api/customer-ips/${id}`, { token })).body.dnsbl;

  it('a domain expiring in 10 days sends one domain.expiring webhook, then shows lastNotifiedWarningAt', async () => {
    const path = `/domains-${suffix}`;
    const setup = await aSetup('watch-domain', path);
    const name = `renew-me-${suffix}.test`;
    // 10 days: the next day's sweep is still in the warning band (3 days or fewer is the error band).
    const domainId = await aDomainExpiringIn(setup, name, 10);
    expect((await expiryOf(setup.org.token, domainId)).lastNotifiedWarningAt).to.equal(null);

    await sweep();
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', {
      what: 'the domain.expiring delivery',
    });
    const requests = receiver.at(path);
    expect(requests).to.have.length(1);
    const body = JSON.parse(requests[0]!.body);
    expect(body).to.include({ event: 'domain.expiring', summary: `${name} expires in 10 days` });
    expect(body.data).to.include({ customerDomainId: domainId, domainName: name, band: 'warning', daysLeft: 10 });

    const expiry = await expiryOf(setup.org.token, domainId);
    expect(expiry.lastNotifiedWarningAt).to.be.a('string');
    expect(expiry).to.include({ lastNotifiedErrorAt: null, lastNotifiedExpiredAt: null });

    // The next day's sweep looks the domain up again and finds the same band: nothing more is sent.
    clock.advance(DAY + HOUR);
    await sweep();
    expect((await expiryOf(setup.org.token, domainId)).lastCheckedAt).to.not.equal(expiry.lastCheckedAt);
    expect((await deliveriesOf(setup.channel.publicId)).map((d) => d.event)).to.deep.equal(['domain.expiring']);
  });

  it('an IP listed by a blocklist zone sends ip.listed, and once clean ip.clean, each setting its lastNotified* timestamp', async () => {
    const path = `/ips-${suffix}`;
    const setup = await aSetup('watch-ip', path);
    const address = `127.0.${Number(suffix) % 250}.${7 + (Number(suffix) % 200)}`;
    const label = `${address.split('.').reverse().join('.')}.bl.test`;
    dns.zone[label] = { A: ['127.0.0.2'], TXT: ['Listed for spam'] };
    const created = await api('POST', `/api/customers/${setup.customerId}/ips`, {
      token: setup.org.token,
      body: { label: 'Mail', ipAddress: address },
    });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    const ipId = created.body.publicId as string;

    await sweep();
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', { what: 'the ip.listed delivery' });
    const listed = JSON.parse(receiver.at(path)[0]!.body);
    expect(listed).to.include({ event: 'ip.listed' });
    expect(listed.data).to.include({ customerIpId: ipId, ipAddress: address, isListed: true, listedCount: 1 });
    const afterListed = await dnsblOf(setup.org.token, ipId);
    expect(afterListed.lastNotifiedListedAt).to.be.a('string');
    expect(afterListed.lastNotifiedCleanAt).to.equal(null);

    delete dns.zone[label];
    clock.advance(7 * HOUR);
    await sweep();
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[1]?.status === 'delivered', { what: 'the ip.clean delivery' });
    expect(receiver.at(path).map((r) => JSON.parse(r.body).event)).to.deep.equal(['ip.listed', 'ip.clean']);
    const afterClean = await dnsblOf(setup.org.token, ipId);
    expect(afterClean).to.include({ isListed: false, lastNotifiedListedAt: afterListed.lastNotifiedListedAt });
    expect(afterClean.lastNotifiedCleanAt).to.be.a('string');
  });

  it('a receiver answering 500 forever leaves lastNotifiedWarningAt null', async () => {
    const path = `/failing-${suffix}`;
    receiver.answer(path, ...Array.from({ length: 10 }, () => ({ status: 500 })));
    const setup = await aSetup('watch-failing', path);
    const domainId = await aDomainExpiringIn(setup, `failing-${suffix}.test`, 5);

    await sweep();
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'failed', { what: 'the delivery given up' });
    expect(receiver.at(path)).to.have.length(3);
    expect(await expiryOf(setup.org.token, domainId)).to.include({
      lastNotifiedWarningAt: null,
      lastNotifiedErrorAt: null,
      lastNotifiedExpiredAt: null,
    });
  });

  it("a domain's own notificationEmail is mailed the event directly, and that delivery sets lastNotifiedErrorAt", async () => {
    const org = await anOrganization('watch-direct');
    const customer = await api('POST', '/api/customers', { token: org.token, body: { name: 'Direct', email: 'ops@direct.example' } });
    const setup = { org, customerId: customer.body.customer.publicId as string, channel: null };
    const address = `owner-${suffix}@customer-fixture.com`;
    const name = `urgent-${suffix}.test`;
    const domainId = await aDomainExpiringIn(setup, name, 2, { notificationEmail: address });

    await sweep();
    const mail = await waitFor(() => smtp.messages.find((m) => m.to.includes(address)), { what: "the mail to the domain's address" });
    expect(mail!.raw).to.match(new RegExp(`^Subject: ${name.replace(/\./g, '\\.')} expires in 2 days$`, 'm'));
    const expiry = await waitFor(
      async () => {
        const current = await expiryOf(org.token, domainId);
        return current.lastNotifiedErrorAt ? current : null;
      },
      { what: 'lastNotifiedErrorAt' },
    );
    expect(expiry).to.include({ lastNotifiedWarningAt: null, lastNotifiedExpiredAt: null });
  });

  it('a maintenance window over the domain holds domain.expiring back; the sweep after it ends announces it', async () => {
    const path = `/maintenance-${suffix}`;
    const setup = await aSetup('watch-maintenance', path);
    const domainId = await aDomainExpiringIn(setup, `in-maintenance-${suffix}.test`, 5);
    const window = await api('POST', '/api/maintenance-windows', {
      token: setup.org.token,
      body: {
        title: 'Registrar transfer',
        startTime: new Date(clock.now().getTime() - HOUR).toISOString(),
        endTime: new Date(clock.now().getTime() + 2 * HOUR).toISOString(),
        targets: [{ type: 'customerDomain', id: domainId }],
      },
    });
    expect(window.status, JSON.stringify(window.body)).to.equal(201);

    await sweep();
    const queued = () =>
      service.app.database.sql.query<{ kind: string }>(
        sql`SELECT kind FROM notification_outbox WHERE organization_id = ${setup.org.user.organizationId} AND kind LIKE 'domain.%'`,
      );
    expect(await queued()).to.deep.equal([]);
    expect((await expiryOf(setup.org.token, domainId)).lastCheckedAt).to.be.a('string');

    clock.advance(DAY + HOUR);
    await sweep();
    await waitFor(async () => (await deliveriesOf(setup.channel.publicId))[0]?.status === 'delivered', {
      what: 'the held-back domain.expiring',
    });
    expect(receiver.at(path).map((r) => JSON.parse(r.body).event)).to.deep.equal(['domain.expiring']);
  });
});
