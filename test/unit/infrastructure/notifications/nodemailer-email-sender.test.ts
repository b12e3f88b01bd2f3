import { expect } from 'chai';
import { anActor } from '../../../support/builders';
import { FakeOrganizationSmtp } from '../../../support/fakes/notifications-fakes';
import { FakeTargetPolicy } from '../../../support/fakes/shared-fakes';
import { fakeCipher } from '../../../support/fakes/monitoring-fakes';
import { harness } from '../../application/notifications/harness';
import { NodemailerEmailSender, platformSmtp } from '../../../../src/infrastructure/notifications/nodemailer-email-sender';
import { SmtpTransportPool } from '../../../../src/infrastructure/notifications/smtp-transport-pool';

describe('e-mail sender (NodemailerEmailSender)', () => {
  it('fails with a clear reason, connecting nowhere, when neither the organization nor the platform has an SMTP server', async () => {
    const { channel } = await harness().create.execute(anActor().build(), {
      name: 'mail',
      type: 'email',
      config: { recipients: ['ops@example.com'] },
    });
    const pool = new SmtpTransportPool({ servers: 1, connectionsPerServer: 1, timeoutMs: 1_000, heloName: 'monitor.example' });
    const sender = new NodemailerEmailSender(new FakeTargetPolicy(), new FakeOrganizationSmtp(), fakeCipher, null, pool);
    const outcome = await sender.send(channel, {
      id: 'd-1',
      event: 'incident.opened',
      occurredAt: '2026-12-01T10:00:00.000Z',
      summary: 'down',
      incidentId: null,
      monitorId: null,
      customerId: null,
      data: {},
    });
    pool.close();
    expect(outcome).to.include({ verdict: 'rejected', statusCode: null });
    expect(pool.size, 'no transport made').to.equal(0);
    expect(outcome.error).to.equal("No SMTP server: set the organization's (PATCH /api/organization/smtp) or SMTP_URL");
  });

  it('reads SMTP_URL: smtp:// is STARTTLS when offered on 587, smtps:// TLS on 465, credentials decoded', () => {
    expect(platformSmtp('smtp://ops%40example.com:p%3Ass@mail.example.com', 'alerts@example.com')).to.deep.equal({
      host: 'mail.example.com',
      port: 587,
      security: 'starttls',
      username: 'ops@example.com',
      password: 'p:ss',
      fromAddress: 'alerts@example.com',
    });
    expect(platformSmtp('smtps://mail.example.com:2465', 'a@example.com')).to.include({
      port: 2465,
      security: 'tls',
      username: null,
      password: null,
    });
    expect(platformSmtp(undefined, 'a@example.com')).to.equal(null);
  });
});
