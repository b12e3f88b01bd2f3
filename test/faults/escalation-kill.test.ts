import { expect } from 'chai';
import { aMailingRig, mustCall, signUpAt, type FaultRig } from '../support/fault-rig';
import type { SmtpPeer } from '../support/peers/smtp-peer';
import { uniqueEmail } from '../support/builders';
import { waitFor } from '../support/wait-for';

const MAIL_HOST = 'mail.escalation-kill-fixture.com';
/** The escalation job's period (src/interfaces/jobs/escalations.job.ts). */
const JOB_PERIOD_MS = 15_000;
/** Three of the job's transactions (20 incidents each). */
const INCIDENTS = 50;

/**
 * SIGKILL during an escalation: an unacknowledged IM incident with a two-level policy (level 2 a
 * minute after level 1). The process is killed right after its escalation job committed the level-1
 * page (its deliverer, idle for minutes, never sent it). After a restart the page is sent once,
 * level 2 is paged on time (within the job's period of its due time) and once, and nobody gets a
 * page twice.
 */
describe('SIGKILL during an escalation', function () {
  this.timeout(240_000);
  let rig: FaultRig;
  let smtp: SmtpPeer;
  let close: () => Promise<void>;

  before(async () => {
    ({ rig, smtp, close } = await aMailingRig('escalation', MAIL_HOST, { NOTIFY_LEASE_MS: '2000' }));
  });
  after(() => close?.());

  it('pages level 1 once after the restart, and level 2 on time and once', async () => {
    // A deliverer that does not come round before the process dies: the page is committed, not sent.
    const first = await rig.start('first', { NOTIFY_POLL_MS: '600000' });
    const admin = await signUpAt(first.url, 'escalation');
    await rig.sql(`UPDATE organizations SET incident_management_enabled = true WHERE id = $1`, [admin.organizationId]);
    const secondEmail = uniqueEmail('level-two');
    const second = await mustCall(first.url, 'POST', '/api/users', 201, {
      token: admin.token,
      body: { name: 'Level two', email: secondEmail, password: 'correct horse battery', role: 'responder' },
    });
    const { email: adminEmail, userId: adminId } = admin;
    const policy = await mustCall(first.url, 'POST', '/api/escalation-config', 201, {
      token: admin.token,
      body: {
        name: 'Checkout',
        repeatCount: 0,
        levels: [
          { delayMinutes: 1, targets: [{ type: 'user', id: adminId }] },
          { delayMinutes: 1, targets: [{ type: 'user', id: second.id }] },
        ],
      },
    });
    // The incidents are opened first and given their policy in one statement: the escalation job
    // wakes on that write and pages them in its batches (opened one by one with the policy, the
    // first would be paged, and sent, while the others were still being opened).
    const incidentIds: string[] = [];
    for (let i = 0; i < INCIDENTS; i++) {
      const incident = await mustCall(first.url, 'POST', '/api/im/incidents', 201, {
        token: admin.token,
        body: { title: `Checkout ${i} is down` },
      });
      incidentIds.push(incident.id as string);
    }
    await rig.sql(`UPDATE im_incidents SET escalation_policy_id = $1 WHERE public_id::text = ANY($2::text[])`, [policy.id, incidentIds]);
    const pages = () =>
      rig.sql<{ incident_id: string; dedup_key: string; created_ms: string; status: string }>(
        `SELECT incident_id, dedup_key, status, floor(extract(epoch FROM created_at) * 1000)::bigint AS created_ms
       FROM notification_deliveries WHERE incident_id::text = ANY($1::text[])`,
        [incidentIds],
      );

    // The job pages 20 incidents per transaction: killed once the first batch committed, mid-run.
    await waitFor(async () => (await pages()).length > 0, { timeoutMs: 60_000, everyMs: 5, what: 'the first level-1 pages committed' });
    await rig.kill(first);
    const beforeKill = await pages();
    expect(beforeKill.length, 'killed during the escalation run').to.be.within(1, INCIDENTS - 1);
    expect(smtp.messages, 'nothing sent before the kill').to.deep.equal([]);
    // The next step of each incident paged before the kill: level 2, due a minute after level 1.
    const levelTwoDue = new Map(
      (
        await rig.sql<{ incident_id: string; next_due_ms: string }>(
          `SELECT incident_id::text, floor(extract(epoch FROM next_due_at) * 1000)::bigint AS next_due_ms FROM im_escalations
       WHERE incident_id::text = ANY($1::text[])`,
          [beforeKill.map((p) => p.incident_id)],
        )
      ).map((r) => [r.incident_id, Number(r.next_due_ms)]),
    );
    expect(levelTwoDue.size, 'level 2 planned for the incidents paged before the kill').to.equal(beforeKill.length);
    const latestDue = Math.max(...levelTwoDue.values());

    await rig.start('second');
    const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
    await waitFor(() => mailsTo(adminEmail).length >= INCIDENTS, { timeoutMs: 60_000, what: 'every level-1 page sent after the restart' });
    await waitFor(() => mailsTo(secondEmail).length >= INCIDENTS, {
      timeoutMs: latestDue - Date.now() + 90_000,
      what: 'every level-2 page',
    });
    const paged = await pages();
    const perKey = new Map<string, number>();
    for (const p of paged) perKey.set(p.dedup_key, (perKey.get(p.dedup_key) ?? 0) + 1);
    expect(paged, 'one page per incident, level and recipient').to.have.length(2 * INCIDENTS);
    expect([...perKey.values()].every((n) => n === 1)).to.equal(true);
    for (const [incidentId, due] of levelTwoDue) {
      const levelTwo = paged.find((p) => p.incident_id === incidentId && p.dedup_key.includes(second.id))!;
      expect(Number(levelTwo.created_ms) - due, "level 2 paged within the job's period of its due time").to.be.within(
        0,
        JOB_PERIOD_MS + 5_000,
      );
    }
    expect(new Set(mailsTo(adminEmail).map((m) => /^Subject: (.*)$/m.exec(m.raw)![1])).size, 'each level-1 page once').to.equal(INCIDENTS);
    expect(new Set(mailsTo(secondEmail).map((m) => /^Subject: (.*)$/m.exec(m.raw)![1])).size, 'each level-2 page once').to.equal(INCIDENTS);
    for (const m of mailsTo(secondEmail)) expect(m.raw).to.match(/^Subject: \[Level 2\] Checkout \d+ is down$/m);
    // Delivered and recorded: no retry will send any again.
    await waitFor(async () => (await pages()).every((p) => p.status === 'delivered'), {
      timeoutMs: 10_000,
      what: 'every page recorded as delivered',
    });
    expect(smtp.messages).to.have.length(2 * INCIDENTS);
  });
});
