import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import initSqlJs from 'sql.js';
import { api } from '../../../support/http-client';
import { wsm } from '../../../support/wsm';
import { anOrganizationForImport, aSource, importApplyTwice } from '../../../support/wsm-import';

/**
 * wsm import against local servers answering each source's documented wire format (they check the
 * key the CLI sends), then plan and apply in-process against the real service; a second import
 * writes the same file and its plan has no changes.
 */

const HOOK = 'https://hooks.receiver-fixture.com/services/T000/B000/xyz';

describe('wsm import', () => {
  it('uptimerobot: pages through getMonitors with the api_key, maps monitors and contacts, lists the rest', async () => {
    const { token, customer } = await anOrganizationForImport('wsm-import-ur');
    const monitors = [
      {
        id: 101,
        friendly_name: 'Shop',
        url: 'https://www.monitor-fixture.com/health',
        type: 1,
        http_method: 2,
        interval: 300,
        timeout: 30,
        status: 2,
        alert_contacts: [{ id: '7' }],
      },
      {
        id: 102,
        friendly_name: 'Shop keyword',
        url: 'https://www.monitor-fixture.com/',
        type: 2,
        keyword_type: 2,
        keyword_case_type: 0,
        keyword_value: 'Welcome',
        interval: 600,
        status: 0,
      },
      { id: 103, friendly_name: 'Mail port', url: 'mail.monitor-fixture.com', type: 4, sub_type: 4, interval: 120, status: 2 },
      { id: 104, friendly_name: 'Gateway', url: 'mail.monitor-fixture.com', type: 3, interval: 90, status: 2 },
      { id: 105, friendly_name: 'Nightly job', url: '', type: 5, interval: 86400, status: 2 },
      { id: 106, friendly_name: 'Odd', url: 'x', type: 9, interval: 300, status: 2 },
    ];
    const contacts = [
      { id: '7', friendly_name: 'Ops mail', type: 2, status: 2, value: 'Ops@Example.com' },
      { id: '8', friendly_name: 'Ops Slack', type: 11, status: 2, value: HOOK },
      { id: '9', friendly_name: 'Pushover', type: 9, status: 2, value: 'u123' },
    ];
    const source = await aSource((req, body) => {
      const form = new URLSearchParams(body);
      expect(req.headers['content-type']).to.equal('application/x-www-form-urlencoded');
      if (form.get('api_key') !== 'ur-key' || form.get('format') !== 'json')
        return { json: { stat: 'fail', error: { type: 'invalid_parameter', message: 'api_key is wrong' } } };
      const offset = Number(form.get('offset'));
      const limit = Number(form.get('limit'));
      if (req.url === '/v2/getMonitors') {
        expect(form.get('alert_contacts')).to.equal('1');
        // Pages of two, whatever the limit asked: the CLI follows pagination.total.
        const page = monitors.slice(offset, offset + Math.min(limit, 2));
        return { json: { stat: 'ok', pagination: { offset, limit, total: monitors.length }, monitors: page } };
      }
      if (req.url === '/v2/getAlertContacts')
        return { json: { stat: 'ok', offset, limit, total: contacts.length, alert_contacts: contacts.slice(offset, offset + limit) } };
      return { status: 404, json: { stat: 'fail' } };
    });
    try {
      const refused = await wsm(['import', 'uptimerobot', '--url', source.url], { token, env: { UPTIMEROBOT_API_KEY: 'wrong' } });
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.include('api_key is wrong');

      const env = { UPTIMEROBOT_API_KEY: 'ur-key', WSM_UPTIMEROBOT_CONTACT_8_URL: HOOK };
      const { text, stderr } = await importApplyTwice(['uptimerobot', '--url', source.url, '--customer', customer], token, env);
      expect(source.calls.filter((c) => c === 'POST /v2/getMonitors')).to.have.length.at.least(3);
      expect(text).to.include('key: uptimerobot/101').and.include('kind: icmp').and.include('monitoringType: heartbeat');
      expect(text).to.include('${env:WSM_UPTIMEROBOT_CONTACT_8_URL}').and.not.include('T000');
      expect(stderr).to.include('not mapped: monitor Odd (106): UptimeRobot monitor type 9 has no kind here');
      expect(stderr).to.include('not mapped: alert contact Pushover (9, Pushover)');
      expect(stderr).to.include('set WSM_UPTIMEROBOT_CONTACT_8_URL');
      const sites = (await api('GET', '/api/websites', { token, query: { perPage: '200' } })).body.items as Array<Record<string, any>>;
      const keyword = sites.find((s) => s.key === 'uptimerobot/102')!;
      expect(keyword).to.include({ keyword: 'Welcome', keywordMode: 'present', status: 'paused', checkInterval: 10 });
      const tcp = (await api('GET', '/api/monitors/tcp', { token })).body.items as Array<Record<string, any>>;
      expect(tcp[0]).to.include({ key: 'uptimerobot/103', hostname: 'mail.monitor-fixture.com', port: 25 });
    } finally {
      await source.close();
    }
  });

  it('betterstack: follows pagination.next with the bearer token, maps monitors, heartbeats and a status page', async () => {
    const { token, customer } = await anOrganizationForImport('wsm-import-bs');
    const record = (id: string, type: string, attributes: Record<string, unknown>) => ({ id, type, attributes });
    let base = '';
    const source = await aSource((req) => {
      if (req.headers.authorization !== 'Bearer bs-token') return { status: 401, json: { errors: 'Invalid Team API token' } };
      const url = req.url!;
      const list = (data: unknown[], next: string | null = null) => ({
        json: { data, pagination: { first: null, last: null, prev: null, next } },
      });
      if (url === '/api/v2/monitors')
        return list(
          [
            record('1', 'monitor', {
              url: 'https://www.monitor-fixture.com/health',
              pronounceable_name: 'Shop',
              monitor_type: 'status',
              check_frequency: 180,
              request_timeout: 15,
              http_method: 'get',
              expected_status_codes: [200, 204],
              regions: ['us', 'eu'],
              paused: false,
            }),
          ],
          `${base}/api/v2/monitors?page=2`,
        );
      if (url === '/api/v2/monitors?page=2')
        return list([
          record('2', 'monitor', {
            url: 'mail.monitor-fixture.com',
            pronounceable_name: 'Mail',
            monitor_type: 'smtp',
            port: '25',
            check_frequency: 300,
            request_timeout: 5000,
          }),
          record('3', 'monitor', {
            url: 'https://www.monitor-fixture.com/',
            pronounceable_name: 'Browser',
            monitor_type: 'playwright',
            check_frequency: 300,
          }),
        ]);
      if (url === '/api/v2/heartbeats')
        return list([record('11', 'heartbeat', { name: 'Backup', period: 3600, grace: 300, paused: false })]);
      if (url === '/api/v2/status-pages')
        return list([record('21', 'status_page', { company_name: 'Acme', subdomain: 'acme-status', custom_domain: null })]);
      if (url === '/api/v2/status-pages/21/sections') return list([record('31', 'status_page_section', { name: 'Web', position: 0 })]);
      if (url === '/api/v2/status-pages/21/resources')
        return list([
          record('41', 'status_page_resource', {
            resource_id: 1,
            resource_type: 'Monitor',
            public_name: 'Shop',
            status_page_section_id: 31,
          }),
          record('42', 'status_page_resource', {
            resource_id: 11,
            resource_type: 'Heartbeat',
            public_name: 'Backups',
            status_page_section_id: 31,
          }),
        ]);
      return { status: 404, json: { errors: 'not found' } };
    });
    base = source.url;
    try {
      const env = { BETTERSTACK_API_TOKEN: 'bs-token' };
      const { text, stderr } = await importApplyTwice(['betterstack', '--url', source.url, '--customer', customer], token, env);
      expect(source.calls).to.include('GET /api/v2/monitors?page=2');
      expect(text).to.include('key: betterstack/2').and.include('key: betterstack/heartbeat/11').and.include('slug: acme-status');
      expect(stderr).to.include("not mapped: monitor Browser (3, playwright): Better Stack's playwright monitors have no kind here");
      expect(stderr).to.include('not mapped: monitor Shop (1, status): regions ["us","eu"]');
      expect(stderr).to.include('not mapped: heartbeat Backup (11): grace 300 s');
      const site = (await api('GET', '/api/websites', { token })).body.items.find((s: { key: string }) => s.key === 'betterstack/1');
      expect(site).to.include({ checkInterval: 3, timeoutSeconds: 15 });
      expect(site.expectedStatusCodes).to.deep.equal([200, 204]);
      const bad = await wsm(['import', 'betterstack', '--url', source.url], { token, env: { BETTERSTACK_API_TOKEN: 'nope' } });
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.include('HTTP 401');
    } finally {
      await source.close();
    }
  });

  it('uptime-kuma: reads its SQLite file (its real schema) and maps monitors, tags, notifications, a window and a page', async () => {
    const { token, customer } = await anOrganizationForImport('wsm-import-kuma');
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.exec(readFileSync(path.join(__dirname, '../../../fixtures/uptime-kuma/schema.sql'), 'utf8'));
    db.exec(`
      INSERT INTO monitor (id, name, type, url, interval, maxretries, retry_interval, timeout, keyword, accepted_statuscodes_json, active)
        VALUES (1, 'Shop', 'keyword', 'https://www.monitor-fixture.com/', 60, 2, 30, 48, 'Welcome', '["200-299"]', 1);
      INSERT INTO monitor (id, name, type, hostname, port, interval, maxretries, timeout, active) VALUES (2, 'DB port', 'port', 'mail.monitor-fixture.com', 5432, 120, 0, 10, 1);
      INSERT INTO monitor (id, name, type, hostname, dns_resolve_type, dns_resolve_server, interval, active) VALUES (3, 'MX', 'dns', 'monitor-fixture.com', 'MX', '1.1.1.1', 300, 0);
      INSERT INTO monitor (id, name, type, interval, active) VALUES (4, 'Cron', 'push', 3600, 1);
      INSERT INTO monitor (id, name, type, url, interval, active) VALUES (5, 'Steam', 'steam', 'x', 60, 1);
      INSERT INTO tag (id, name, color) VALUES (1, 'Production', '#DC2626');
      INSERT INTO monitor_tag (monitor_id, tag_id, value) VALUES (1, 1, ''), (2, 1, 'eu');
      INSERT INTO notification (id, name, config, active, user_id) VALUES
        (1, 'Ops mail', '{"type":"smtp","smtpTo":"ops@example.com","smtpHost":"smtp.example.com"}', 1, 1),
        (2, 'Gotify', '{"type":"gotify","gotifyserverurl":"https://g.example.com"}', 1, 1);
      INSERT INTO maintenance (id, title, description, strategy, start_date, end_date, active) VALUES (1, 'Upgrade', 'DB upgrade', 'single', '2030-01-05 02:00:00', '2030-01-05 04:00:00', 1);
      INSERT INTO monitor_maintenance (monitor_id, maintenance_id) VALUES (2, 1);
      INSERT INTO status_page (id, slug, title, icon, theme) VALUES (1, 'acme', 'Acme status', '/icon.svg', 'light');
      INSERT INTO [group] (id, name, status_page_id, weight) VALUES (1, 'Web', 1, 1);
      INSERT INTO monitor_group (monitor_id, group_id, weight) VALUES (1, 1, 1), (5, 1, 2);
    `);
    const dir = mkdtempSync(path.join(tmpdir(), 'wsm-kuma-'));
    const file = path.join(dir, 'kuma.db');
    writeFileSync(file, db.export());
    db.close();
    try {
      const { text, stderr } = await importApplyTwice(['uptime-kuma', '--file', file, '--customer', customer], token, {});
      expect(text)
        .to.include('key: uptime-kuma/1')
        .and.include('kind: dns')
        .and.include('slug: acme')
        .and.include('key: uptime-kuma/maintenance/1');
      expect(stderr).to.include("not mapped: monitor Steam (5, steam): Uptime Kuma's steam monitors have no kind here");
      expect(stderr).to.include('not mapped: notification Gotify (2, gotify)');
      expect(stderr).to.include('not mapped: tag Production of monitor 2: value eu');
      const dns = (await api('GET', '/api/monitors/dns', { token })).body.items[0];
      expect(dns).to.include({ key: 'uptime-kuma/3', recordType: 'MX', resolver: '1.1.1.1', status: 'paused', checkInterval: 5 });
      const site = (await api('GET', '/api/websites', { token })).body.items.find((s: { key: string }) => s.key === 'uptime-kuma/1');
      expect(site).to.include({ keyword: 'Welcome', alertConsecutiveChecks: 3, alertRetryInterval: 30, timeoutSeconds: 48 });
      expect(site.tags.map((t: { name: string }) => t.name)).to.deep.equal(['Production']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A real Uptime Kuma's database (its data volume's kuma.db, copied while it is stopped): run with
  // UPTIME_KUMA_DB=/path/to/kuma.db npx mocha test/integration/http/as-code/wsm-import.test.ts
  // (mocha forbids pending tests here, so without the variable the test is not defined).
  if (process.env.UPTIME_KUMA_DB)
    it("uptime-kuma: a real instance's kuma.db imports, applies, and imports again without change", async () => {
      const { token, customer } = await anOrganizationForImport('wsm-import-kuma-real');
      const { stderr } = await importApplyTwice(['uptime-kuma', '--file', process.env.UPTIME_KUMA_DB!, '--customer', customer], token, {});
      expect(stderr).to.match(/wsm import: \d+ monitors/);
    });
  else console.log('wsm-import: set UPTIME_KUMA_DB=/path/to/kuma.db (a real Uptime Kuma database) to import it too');
});
