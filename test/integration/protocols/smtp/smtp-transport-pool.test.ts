import { expect } from 'chai';
import { CheckDeadline } from '../../../../src/application/checks/check-deadline';
import { SmtpTransportPool } from '../../../../src/infrastructure/notifications/smtp-transport-pool';
import { NodemailerEmailSender, platformSmtp } from '../../../../src/infrastructure/notifications/nodemailer-email-sender';
import type { ClaimedDirectDelivery } from '../../../../src/application/notifications/delivery-ports';
import { FakeTargetPolicy } from '../../../support/fakes/shared-fakes';
import { FakeOrganizationSmtp } from '../../../support/fakes/notifications-fakes';
import { fakeCipher } from '../../../support/fakes/monitoring-fakes';
import { TurnNotFree } from '../../../../src/infrastructure/protocols/shared/slots';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { waitFor } from '../../../support/wait-for';

/**
 * The pooled SMTP transports' turns, against smtp-server on loopback: a message is handed to a
 * server's connection only when one is free, its send's time counts from there, and one still
 * waiting when its turn's deadline passes is never sent.
 */
describe('SmtpTransportPool: a turn at one of the server connections, then the send', () => {
  let peer: SmtpPeer;
  const pools: SmtpTransportPool[] = [];

  before(async () => {
    peer = await new SmtpPeer(testCertificates().selfSigned, { starttls: false }).start();
  });
  afterEach(() => {
    peer.release();
    for (const pool of pools.splice(0)) pool.close();
  });
  after(() => peer.stop());

  const aPool = () => {
    const pool = new SmtpTransportPool({ servers: 2, connectionsPerServer: 1, timeoutMs: 5_000, heloName: 'monitor.example' });
    pools.push(pool);
    return pool;
  };
  const target = () => ({
    host: 'localhost',
    address: '127.0.0.1',
    port: peer.port,
    security: 'none' as const,
    username: null,
    password: null,
  });
  const mail = (subject: string) => ({ from: 'alerts@monitor.example', to: 'ops@customer.example', subject, text: subject });
  const sent = (subject: string) => peer.messages.filter((m) => m.raw.includes(`Subject: ${subject}`)).length;

  it('never sends a message whose turn did not come before its deadline, and says so (TurnNotFree)', async () => {
    const pool = aPool();
    peer.holding = true;
    const first = pool.send(target(), mail('turn-first'), { turn: CheckDeadline.after(5_000), sendMs: 5_000 });
    await waitFor(() => peer.held === 1, { what: 'the first message held by the server' });
    const error = await pool.send(target(), mail('turn-never'), { turn: CheckDeadline.after(300), sendMs: 5_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(TurnNotFree);
    peer.release();
    await first;
    expect([sent('turn-first'), sent('turn-never')]).to.deep.equal([1, 0]);
  });

  it("counts a message's send from its turn: one queued longer than sendMs behind a slow one is still sent", async () => {
    const pool = aPool();
    peer.holding = true;
    let turns = 0;
    const onTurn = () => turns++;
    const first = pool.send(target(), mail('send-ahead'), { turn: CheckDeadline.after(5_000), sendMs: 5_000, onTurn });
    await waitFor(() => peer.held === 1, { what: 'the first message held by the server' });
    const queued = pool.send(target(), mail('send-behind'), { turn: CheckDeadline.after(5_000), sendMs: 400, onTurn });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(turns, 'the second still waits its turn').to.equal(1);
    peer.release();
    await Promise.all([first, queued]);
    expect([sent('send-ahead'), sent('send-behind'), turns]).to.deep.equal([1, 1, 2]);
  });

  it("makes a message that never had its turn the sender's own delay: retried, local, no latency of the server's", async () => {
    const pool = aPool();
    const policy = new FakeTargetPolicy();
    policy.verdicts.set('mail.pool-fixture.com', { ok: true, hostname: 'mail.pool-fixture.com', addresses: ['127.0.0.1'] });
    const platform = platformSmtp(`smtp://mail.pool-fixture.com:${peer.port}`, 'alerts@monitor.example');
    const sender = new NodemailerEmailSender(policy, new FakeOrganizationSmtp(), fakeCipher, platform, pool, 200);
    const direct = (subject: string): ClaimedDirectDelivery => ({
      id: `delivery-${subject}`,
      organizationId: 1,
      customerId: null,
      recipient: { type: 'email', address: 'ops@customer.example' },
      attempts: 0,
      content: { event: 'test', occurredAt: new Date(0).toISOString(), subject, text: subject },
    });
    peer.holding = true;
    const first = sender.sendDirect(direct('sender-first'));
    await waitFor(() => peer.held === 1, { what: 'the first message held by the server' });
    const second = await sender.sendDirect(direct('sender-never'));
    expect(second).to.include({ verdict: 'retry', statusCode: null, local: true });
    expect(second.latencyMs).to.be.below(50);
    expect(second.error).to.match(/came free in time/);
    peer.release();
    expect(await first).to.include({ verdict: 'delivered', statusCode: 250 });
    expect(await first).not.to.have.property('local');
    expect([sent('sender-first'), sent('sender-never')]).to.deep.equal([1, 0]);
  });
});
