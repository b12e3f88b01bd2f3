import { expect } from 'chai';
import pino from 'pino';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { testClock } from '../../../support/test-clock';
import { testServer } from '../../../support/test-server';
import { waitFor } from '../../../support/wait-for';
import { wakeJobsOnNotices, type WakeableJob } from '../../../../src/infrastructure/scheduling/job-wakeups';
import { jobDefinitions } from '../../../../src/main/jobs';
import { MAINTENANCE_ANNOUNCEMENTS_JOB } from '../../../../src/interfaces/jobs/maintenance-announcements.job';
import { ESCALATION_DUE_TIMES, type EscalationDueTimes } from '../../../../src/application/on-call/ports';
import { SILENCE_DEADLINES, type SilenceDeadlines } from '../../../../src/application/incidents/ports';
import { WATCH_DUE_TIMES, type WatchDueTimes } from '../../../../src/application/watches/ports';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const silent = pino({ level: 'silent' });
const now = () => testClock.now().getTime();

/**
 * The time-driven jobs sleep until their rows' next due time or a `job_rows` notice, with no poll
 * in the test (the job system is not started: its safety poll cannot explain what happens here).
 */
describe('time-driven jobs wake on their rows: a job_rows notice or their due time', () => {
  before(async function () {
    this.timeout(120_000);
    await testServer();
  });

  it('announces a window written now at once (its notice), and its end at the end (its due time)', async () => {
    const app = await testServer();
    const org = await anOrganization('job-wakeups');
    const customerId = await aCustomerRow(org.user.organizationId);
    const monitor = await aMonitorRow(org.user.organizationId, customerId, { locations: ['eu-west'] });
    await app.database.sql.query(sql`UPDATE monitors SET kind = 'website', monitoring_type = 'http' WHERE id = ${monitor.id}`);
    const job = jobDefinitions(app.container, silent).find((j) => j.name === MAINTENANCE_ANNOUNCEMENTS_JOB)!;
    const around = <T>(work: () => Promise<T>) => work();
    const runs: number[] = [];
    const stop = await wakeJobsOnNotices(
      app.databaseUrl,
      [
        {
          name: job.name,
          wakeOn: job.wakeOn,
          nextDueAt: () => around(() => job.nextDueAt!()),
          run: () => around(() => (runs.push(Date.now()), job.run())),
        },
      ],
      silent,
      { now },
    );
    const announced = async () =>
      (
        await app.database.sql.query<{ kind: string }>(
          sql`SELECT kind FROM notification_outbox WHERE organization_id = ${org.user.organizationId} AND kind IN ('maintenance.started', 'maintenance.ended') ORDER BY id`,
        )
      ).map((row) => row.kind);
    try {
      await waitFor(() => runs.length >= 1, { what: 'the run at start' });
      const endsAt = now() + 2_500;
      const created = await api('POST', '/api/maintenance-windows', {
        token: org.token,
        body: {
          title: 'Woken',
          startTime: new Date(now() - 60_000).toISOString(),
          endTime: new Date(endsAt).toISOString(),
          targets: [{ type: 'website', id: monitor.publicId }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      await waitFor(async () => (await announced()).includes('maintenance.started'), {
        timeoutMs: 2_000,
        what: 'the start announced on the notice',
      });
      expect(now(), 'announced before the end').to.be.below(endsAt);
      await waitFor(async () => (await announced()).includes('maintenance.ended'), {
        timeoutMs: 4_000,
        what: 'the end announced at its time',
      });
      expect(now(), 'not before the end').to.be.at.least(endsAt);
      expect(await announced()).to.deep.equal(['maintenance.started', 'maintenance.ended']);
      // At start, on the notice, at the end (other tests' windows may add an edge or two): no poll.
      expect(runs.length, 'runs').to.be.within(3, 6);
    } finally {
      await stop();
    }
  });

  it("notifies a job's topic only for writes that changed its rows, and wakes only the jobs of that topic", async () => {
    const app = await testServer();
    const topics = ['escalations', 'locations', 'maintenance', 'reports', 'service-levels', 'watches'];
    const woken: string[] = [];
    const jobs: WakeableJob[] = topics.map((topic) => ({
      name: topic,
      wakeOn: [`job_rows:${topic}`],
      run: async () => void woken.push(topic),
    }));
    const stop = await wakeJobsOnNotices(app.databaseUrl, jobs, silent, { minGapMs: 0 });
    // A statement that changes no row notifies no one (the escalation job's adopting INSERT runs
    // every time: were it to notify, the job would wake itself every second).
    const noRows = [
      'INSERT INTO im_escalations SELECT * FROM im_escalations WHERE false',
      'INSERT INTO im_incidents SELECT * FROM im_incidents WHERE false',
      'UPDATE im_incidents SET escalation_policy_id = escalation_policy_id WHERE false',
      'UPDATE im_incident_monitor_origins SET recovered_at = recovered_at WHERE false',
      'INSERT INTO check_workers SELECT * FROM check_workers WHERE false',
      'INSERT INTO monitors SELECT * FROM monitors WHERE false',
      'UPDATE monitors SET locations = locations WHERE false',
      'DELETE FROM maintenance_windows WHERE false',
      'UPDATE report_definitions SET updated_at = updated_at WHERE false',
      'DELETE FROM service_level_objectives WHERE false',
      'UPDATE customer_domains SET updated_at = updated_at WHERE false',
      'UPDATE customer_ips SET updated_at = updated_at WHERE false',
    ];
    try {
      for (const statement of noRows) await app.database.sql.query(sql([statement] as unknown as TemplateStringsArray));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(woken, 'statements that changed no row').to.deep.equal([]);
      // A monitor created wakes the location silence only.
      const org = await anOrganization('job-wakeups-topics');
      const customerId = await aCustomerRow(org.user.organizationId);
      await aMonitorRow(org.user.organizationId, customerId, { locations: ['eu-west'] });
      await waitFor(() => woken.includes('locations'), { timeoutMs: 2_000, what: 'the monitor noticed' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(woken).to.deep.equal(['locations']);
      woken.length = 0;
      // A renewal of a live check process (every few seconds) notifies no one; a lapsed one coming back does.
      const worker = `job-wakeups-${Date.now()}`;
      await app.database.sql.query(
        sql`INSERT INTO check_workers (worker_id, locations, alive_until) VALUES (${worker}, ${['job-wakeups-loc']}::text[], now() + interval '1 minute')`,
      );
      await waitFor(() => woken.includes('locations'), { timeoutMs: 2_000, what: 'the registration noticed' });
      woken.length = 0;
      await app.database.sql.query(sql`UPDATE check_workers SET alive_until = now() + interval '2 minutes' WHERE worker_id = ${worker}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(woken, 'a renewal').to.deep.equal([]);
      await app.database.sql.query(sql`UPDATE check_workers SET alive_until = now() - interval '1 second' WHERE worker_id = ${worker}`);
      await app.database.sql.query(sql`UPDATE check_workers SET alive_until = now() + interval '1 minute' WHERE worker_id = ${worker}`);
      await waitFor(() => woken.includes('locations'), { timeoutMs: 2_000, what: 'the lapsed worker back' });
      await app.database.sql.query(sql`DELETE FROM check_workers WHERE worker_id = ${worker}`);
    } finally {
      await stop();
    }
  });

  it('reads the due times from the rows: a live location deadline, escalations and watches', async () => {
    const app = await testServer();
    const around = <T>(work: () => Promise<T>) => work();
    const worker = `job-wakeups-deadline-${Date.now()}`;
    const until = new Date(now() + 90_000);
    await app.database.sql.query(
      sql`INSERT INTO check_workers (worker_id, locations, alive_until) VALUES (${worker}, ${['job-wakeups-deadline']}::text[], ${until})`,
    );
    try {
      const liveness = await around(() => app.container.get<SilenceDeadlines>(SILENCE_DEADLINES).liveness(testClock.now()));
      expect(liveness.live).to.include('job-wakeups-deadline');
      expect(liveness.nextSilenceAt!.getTime()).to.be.at.most(until.getTime());
    } finally {
      await app.database.sql.query(sql`DELETE FROM check_workers WHERE worker_id = ${worker}`);
    }
    const escalationDue = await around(() => app.container.get<EscalationDueTimes>(ESCALATION_DUE_TIMES).nextDueAt(testClock.now()));
    expect(escalationDue === null || escalationDue instanceof Date).to.equal(true);
    // A customer domain never checked is due at once.
    const org = await anOrganization('job-wakeups-watch');
    const customerId = await aCustomerRow(org.user.organizationId);
    const [customer] = await app.database.sql.query<{ public_id: string }>(sql`SELECT public_id FROM customers WHERE id = ${customerId}`);
    const domain = await api('POST', `/api/customers/${customer!.public_id}/domains`, {
      token: org.token,
      body: { domainName: 'job-wakeups.example.com' },
    });
    expect(domain.status, JSON.stringify(domain.body)).to.equal(200);
    try {
      const watchDue = await around(() => app.container.get<WatchDueTimes>(WATCH_DUE_TIMES).nextDueAt(86_400_000, 21_600_000));
      expect(watchDue!.getTime()).to.be.at.most(now());
    } finally {
      // Other tests sweep every due domain: this one goes.
      await app.database.sql.query(sql`DELETE FROM customer_domains WHERE public_id = ${domain.body.publicId}`);
    }
  });
});
