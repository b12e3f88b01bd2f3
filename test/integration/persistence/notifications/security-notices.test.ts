import { expect } from 'chai';
import { anOrganization } from '../../../support/builders';
import { api } from '../../../support/http-client';
import { aCustomerRow, aMember } from '../../../support/identity-fixtures';
import { testServer } from '../../../support/test-server';
import { aDeliveryService, type DeliveryService } from '../../../support/delivery-service';
import { testCertificates } from '../../../support/peers/certificates';
import { SmtpPeer } from '../../../support/peers/smtp-peer';
import { waitFor } from '../../../support/wait-for';
import { SendSecurityNotices } from '../../../../src/application/notifications/send-security-notices';
import { sql } from '../../../../src/infrastructure/persistence/sql';

/**
 * The identity context's security notices travel as its typed event through the outbox; the
 * notifications context turns each into one direct e-mail per administrator it names.
 */
describe('security notices to administrators (identity event -> direct e-mails)', () => {
  const send = async () => {
    const app = await testServer();
    return app.container.get(SendSecurityNotices).execute();
  };
  const query = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);

  it('publishes one identity.securityNotice naming the active administrators, sent once as an e-mail to each', async () => {
    const org = await anOrganization();
    const organizationId = org.user.organizationId;
    const admin = await aMember(org, 'admin');
    const retired = await aMember(org, 'admin');
    await api('PATCH', `/api/users/${retired.id}`, { token: org.token, body: { isActive: false } });
    await aMember(org, 'admin', await aCustomerRow(organizationId));
    const editor = await aMember(org, 'editor');
    expect((await api('POST', '/api/account/deletion-request', { token: editor.token })).status).to.equal(202);

    const [row] = await query<{ id: string; kind: string; payload: Record<string, any> }>(
      sql`SELECT id::text, kind, payload FROM notification_outbox WHERE organization_id = ${organizationId} ORDER BY id`,
    );
    expect(row!.kind).to.equal('identity.securityNotice');
    expect(row!.payload.version).to.equal(1);
    expect(row!.payload.subject).to.equal('Account deletion requested');
    const administrators = (row!.payload.administrators as { email: string }[]).map((a) => a.email);
    expect(administrators).to.have.members([org.user.email, admin.email]);

    expect(await send()).to.be.at.least(1);
    const messages = await query<{ address: string; event: string; subject: string; text: string }>(
      sql`SELECT recipient->>'address' AS address, event, payload->>'subject' AS subject, payload->>'text' AS text
            FROM notification_deliveries WHERE organization_id = ${organizationId} AND recipient IS NOT NULL ORDER BY id`,
    );
    expect(messages.map((m) => m.address)).to.have.members([org.user.email, admin.email]);
    for (const message of messages) {
      expect(message.event).to.equal('identity.securityNotice');
      expect(message.subject).to.equal('Account deletion requested');
      expect(message.text).to.match(
        /^editor user <.+> asked to delete their account\. It will be deleted on .+ unless the request is withdrawn\.$/,
      );
      expect(message.text).to.contain(editor.email);
    }
    const [marked] = await query<{ routed: boolean; delivered: boolean }>(
      sql`SELECT routed_at IS NOT NULL AS routed, delivered_at IS NOT NULL AS delivered FROM notification_outbox WHERE id = ${row!.id}`,
    );
    expect(marked).to.deep.equal({ routed: true, delivered: true });

    await send();
    const [count] = await query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notification_deliveries WHERE organization_id = ${organizationId} AND recipient IS NOT NULL`,
    );
    expect(count!.n, 'a notice is sent once').to.equal(2);
  });

  it('sets aside a notice row the event decoder refuses (routed, left undelivered), without holding up the next', async () => {
    const org = await anOrganization();
    const organizationId = org.user.organizationId;
    const broken = {
      kind: 'identity.securityNotice',
      version: 1,
      organizationId,
      occurredAt: new Date().toISOString(),
      subject: 'x',
      body: 'y',
      administrators: [{ userId: 'u' }],
    };
    const [bad] = await query<{ id: string }>(
      sql`INSERT INTO notification_outbox (organization_id, kind, payload, subject, body) VALUES (${organizationId}, 'identity.securityNotice', ${JSON.stringify(broken)}::jsonb, 'x', 'y') RETURNING id::text`,
    );
    const editor = await aMember(org, 'editor');
    await api('POST', '/api/account/deletion-request', { token: editor.token });
    await send();
    const rows = await query<{ id: string; routed: boolean; delivered: boolean }>(
      sql`SELECT id::text, routed_at IS NOT NULL AS routed, delivered_at IS NOT NULL AS delivered FROM notification_outbox WHERE organization_id = ${organizationId} ORDER BY id`,
    );
    expect(rows.map((r) => [r.id === bad!.id, r.routed, r.delivered])).to.deep.equal([
      [true, true, false],
      [false, true, true],
    ]);
    const [count] = await query<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM notification_deliveries WHERE organization_id = ${organizationId} AND recipient IS NOT NULL`,
    );
    expect(count!.n).to.equal(1);
  });
});

describe('security notices mailed by the notification worker (loopback SMTP)', () => {
  const MAIL_HOST = 'mail.notice-fixture.com';
  const smtp = new SmtpPeer(testCertificates().selfSigned, { starttls: false });
  let service: DeliveryService;

  before(async () => {
    await smtp.start();
    service = await aDeliveryService([MAIL_HOST], {
      SMTP_URL: `smtp://user:secret@${MAIL_HOST}:${smtp.port}`,
      SMTP_FROM: 'status@platform.example',
    });
  });
  after(async () => {
    await service?.stopWorkers();
    await service?.stop();
    await smtp.stop();
  });

  it('mails every active administrator the request and the withdrawal, subject and body as the identity context wrote them', async () => {
    const org = await anOrganization();
    const admin = await aMember(org, 'admin');
    const editor = await aMember(org, 'editor');
    await api('POST', '/api/account/deletion-request', { token: editor.token });
    await api('DELETE', '/api/account/deletion-request', { token: editor.token });
    service.worker('security-notices');

    for (const address of [org.user.email, admin.email]) {
      const mails = await waitFor(
        () => {
          const found = smtp.messages.filter((m) => m.to.includes(address));
          return found.length === 2 ? found : undefined;
        },
        { what: `both notices to ${address}` },
      );
      const subjects = mails!.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1]);
      expect(subjects).to.have.members(['Account deletion requested', 'Account deletion withdrawn']);
      const withdrawn = mails!.find((m) => m.raw.includes('Subject: Account deletion withdrawn'))!;
      expect(withdrawn.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).to.include(
        `editor user <${editor.email}> withdrew the request to delete their account.`,
      );
    }
    expect(
      smtp.messages.filter((m) => m.to.includes(editor.email)),
      'only administrators',
    ).to.have.length(0);
  });
});
