import { expect } from 'chai';
import { apiAt } from '../../../support/http-client';
import { aCallerSet } from '../../../support/callers';
import { aMember } from '../../../support/identity-fixtures';
import { setIncidentManagement } from '../../../support/im-fixtures';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { ManualClock } from '../../../support/manual-clock';
import { waitFor } from '../../../support/wait-for';
import { RunDueEscalations } from '../../../../src/application/on-call/run-due-escalations';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const MAIL_HOST = 'mail.escalation-fixture.com';
const MINUTE = 60_000;

/**
 * An unacknowledged IM incident escalates through the real service: the escalation job's use case
 * on a controlled clock, the delivery ledger, the notification worker and a loopback SMTP server.
 */
describe('escalation end to end (loopback SMTP, controlled clock)', () => {
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  const clock = ManualClock.followingRealTime();
  let service: DeliveryService;

  before(async () => {
    await smtp.start();
    service = await aDeliveryService(
      [MAIL_HOST],
      { SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`, SMTP_FROM: 'pager@platform.example' },
      { clock },
    );
    service.worker('escalation-e2e');
  });
  after(async () => {
    await service?.stop();
    await smtp.stop();
  });

  it('pages level 1 at once, level 2 after its delay, and stops when someone acknowledges', async () => {
    const set = await aCallerSet();
    await setIncidentManagement(set.organizationId, true);
    const second = await aMember(set.org, 'responder');
    const at = (method: string, path: string, token: string, body?: unknown) => apiAt(service.app.url, method, path, { token, body });
    const policy = await at('POST', '/api/escalation-config', set.admin, {
      name: 'Checkout',
      repeatCount: 1,
      levels: [
        { delayMinutes: 5, targets: [{ type: 'user', id: set.org.user.id }] },
        { delayMinutes: 10, targets: [{ type: 'user', id: second.id }] },
      ],
    });
    expect(policy.status, JSON.stringify(policy.body)).to.equal(201);
    const incident = await at('POST', '/api/im/incidents', set.admin, { title: 'Checkout is down', escalationPolicyId: policy.body.id });
    expect(incident.status, JSON.stringify(incident.body)).to.equal(201);
    const incidentId: string = incident.body.id;

    const run = () => service.app.container.get(RunDueEscalations).execute();
    const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
    const pagesOf = async () =>
      (
        await service.app.database.sql.query<{ n: string }>(
          sql`SELECT count(*) AS n FROM notification_deliveries WHERE incident_id = ${incidentId}`,
        )
      )[0]!.n;

    await run();
    const first = await waitFor(() => mailsTo(set.org.email)[0], { what: 'the level 1 page' });
    expect(first!.raw).to.match(/^Subject: \[Level 1\] Checkout is down$/m);

    clock.advance(4 * MINUTE);
    await run();
    expect(await pagesOf()).to.equal('1');

    clock.advance(1 * MINUTE);
    await run();
    const secondPage = await waitFor(() => mailsTo(second.email)[0], { what: 'the level 2 page' });
    expect(secondPage!.raw).to.match(/^Subject: \[Level 2\] Checkout is down$/m);

    const ack = await at('POST', `/api/im/incidents/${incidentId}/acknowledge`, second.token);
    expect(ack.status, JSON.stringify(ack.body)).to.be.oneOf([200, 204]);
    clock.advance(30 * MINUTE); // past the repeat of level 1 (at +15 min) and of level 2 (at +20 min)
    await run();
    expect(await pagesOf()).to.equal('2');
    const [row] = await service.app.database.sql.query<{ next_due_at: Date | null }>(
      sql`SELECT next_due_at FROM im_escalations WHERE incident_id = ${incidentId}`,
    );
    expect(row!.next_due_at).to.equal(null);
    expect(mailsTo(set.org.email)).to.have.length(1);
  });
});
