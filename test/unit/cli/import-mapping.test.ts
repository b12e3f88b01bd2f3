import { expect } from 'chai';
import { load } from 'js-yaml';
import { NOTIFIERS, secretFields } from '../../../src/domain/notifications/notifiers';
import { TAG_COLORS } from '../../../src/domain/monitoring/tag';
import { mapBetterStack, type JsonApiRecord } from '../../../src/interfaces/cli/import/betterstack';
import {
  hostOf,
  ImportDraft,
  minutesOf,
  nearestColor,
  renderImport,
  reportImport,
  statusCodes,
  timeoutOf,
} from '../../../src/interfaces/cli/import/shared';
import { mapKuma } from '../../../src/interfaces/cli/import/uptime-kuma';
import { mapUptimeRobot, type UptimeRobotMonitor } from '../../../src/interfaces/cli/import/uptimerobot';
import { WsmFile } from '../../../src/interfaces/cli/file-schema';
import { EMPTY_KUMA } from '../../support/kuma-data';

const ur = (m: Partial<UptimeRobotMonitor> & Pick<UptimeRobotMonitor, 'id' | 'type'>): UptimeRobotMonitor => ({
  friendly_name: `m${m.id}`,
  url: 'https://www.example.com/',
  interval: 300,
  status: 2,
  ...m,
});

const byKey = (draft: ImportDraft, key: string) => draft.monitors.find((m) => m.key === key);

describe('wsm import: the shared mapping', () => {
  it('turns seconds into minutes (rounded up, noted) and keeps timeouts within 1 to 60 s', () => {
    const draft = new ImportDraft();
    expect(minutesOf(300, 'a', draft)).to.equal(5);
    expect(draft.notes).to.deep.equal([]);
    expect(minutesOf(30, 'b', draft)).to.equal(1);
    expect(minutesOf(86400 * 2, 'c', draft)).to.equal(1440);
    expect(minutesOf(86400 * 2, 'd', draft, 43200)).to.equal(2880);
    expect(draft.notes).to.have.length(2);
    expect(timeoutOf(48, 'e', draft)).to.equal(48);
    expect(timeoutOf(90, 'f', draft)).to.equal(60);
    expect(timeoutOf(0.5, 'g', draft)).to.equal(1);
    expect(draft.notes.at(-1)).to.include('timeout 0.5 s becomes 1 s');
  });

  it('expands status code ranges, the default 2xx as none, refusing what the service cannot list', () => {
    expect(statusCodes(['200-299'])).to.deep.equal([]);
    expect(statusCodes(['200-204', '301'])).to.deep.equal([200, 201, 202, 203, 204, 301]);
    expect(statusCodes(['100-599'])).to.equal(null);
    expect(statusCodes(['abc'])).to.equal(null);
  });

  it('finds the nearest palette color and the host of a URL or a host:port', () => {
    expect(nearestColor(TAG_COLORS[1])).to.equal(TAG_COLORS[1]);
    expect(nearestColor('not a color')).to.equal(TAG_COLORS[0]);
    expect(TAG_COLORS as readonly string[]).to.include(nearestColor('#123456'));
    expect(hostOf('https://a.example.com:8443/x')).to.deep.equal({ host: 'a.example.com', port: 8443 });
    expect(hostOf('db.example.com:5432')).to.deep.equal({ host: 'db.example.com', port: 5432 });
    expect(hostOf('10.0.0.1')).to.deep.equal({ host: '10.0.0.1', port: null });
    expect(hostOf('')).to.equal(null);
  });

  it("writes every channel type's secret fields as references (from the descriptors), listing where each value is", () => {
    for (const n of NOTIFIERS) {
      const draft = new ImportDraft();
      expect(draft.channel(n.type, 'src/c/1', 'C', n.type, { ...n.sample }, 'the source'), n.type).to.equal(true);
      const config = draft.channels[0]!.config as Record<string, unknown>;
      for (const field of secretFields(n.type)) {
        if (typeof (n.sample as Record<string, unknown>)[field] !== 'string') continue;
        expect(config[field], `${n.type}.${field}`).to.match(/^\$\{env:WSM_SRC_C_1_[A-Z_]+\}$/);
        expect(draft.references.map((r) => r.from)).to.include(`the source, its ${field}`);
      }
    }
  });

  it('lists a channel of a type the service lacks and an entry its schema refuses, with the reason, and renders in key order', () => {
    const draft = new ImportDraft();
    expect(draft.channel('contact x', 'k', 'X', 'carrier-pigeon', {}, 'there')).to.equal(false);
    expect(draft.monitor('monitor y', { key: 'y', kind: 'website', checkInterval: 'often' })).to.equal(false);
    draft.monitor('b', { key: 'b', kind: 'icmp', hostname: 'b.example.com' });
    draft.monitor('a', { key: 'a', kind: 'icmp', hostname: 'a.example.com' });
    expect(draft.unmapped[0]).to.equal('contact x: this service has no carrier-pigeon channel type');
    expect(draft.unmapped[1]).to.match(/^monitor y: not a valid entry here \(checkInterval: /);
    const text = renderImport(draft, null, 'Test');
    const file = WsmFile.parse(load(text));
    expect(file.monitors!.map((m) => m.key)).to.deep.equal(['a', 'b']);
    expect(renderImport(draft, null, 'Test')).to.equal(text);
    expect(reportImport(draft)).to.include('wsm import: not mapped: contact x').and.include('2 monitors, 0 channels, 2 not mapped');
  });
});

describe('wsm import: UptimeRobot', () => {
  it('maps HTTP, keyword (keyword_type 1: down when present), ping, port sub-types and heartbeats', () => {
    const draft = new ImportDraft();
    mapUptimeRobot(
      {
        monitors: [
          ur({ id: 1, type: 1, http_method: 3, timeout: 20, http_username: 'u', http_password: 'p' }),
          ur({ id: 2, type: 2, keyword_type: 1, keyword_case_type: 1, keyword_value: 'Error', status: 0 }),
          ur({ id: 3, type: 3, url: 'gw.example.com' }),
          ur({ id: 4, type: 4, sub_type: 6, url: 'mail.example.com' }),
          ur({ id: 5, type: 4, sub_type: 99, port: 8080, url: 'app.example.com' }),
          ur({ id: 6, type: 5, interval: 86400 }),
          ur({ id: 7, type: 42 }),
        ],
        contacts: [],
      },
      draft,
    );
    expect(byKey(draft, 'uptimerobot/1')).to.deep.include({ kind: 'website', method: 'POST', timeoutSeconds: 20, checkInterval: 5 });
    expect((byKey(draft, 'uptimerobot/1')!.headers as Record<string, string>).Authorization).to.equal(
      '${env:WSM_UPTIMEROBOT_1_HEADER_AUTHORIZATION}',
    );
    expect(byKey(draft, 'uptimerobot/2')).to.deep.include({
      keyword: 'Error',
      keywordMode: 'absent',
      keywordCaseSensitive: true,
      status: 'paused',
    });
    expect(byKey(draft, 'uptimerobot/3')).to.deep.include({ kind: 'icmp', hostname: 'gw.example.com' });
    expect(byKey(draft, 'uptimerobot/4')).to.deep.include({ kind: 'tcp', port: 143 });
    expect(byKey(draft, 'uptimerobot/5')).to.deep.include({ kind: 'tcp', port: 8080 });
    expect(byKey(draft, 'uptimerobot/6')).to.deep.include({ monitoringType: 'heartbeat', checkInterval: 1440 });
    expect(draft.unmapped).to.deep.equal(['monitor m7 (7): UptimeRobot monitor type 42 has no kind here']);
  });

  it('maps e-mail, SMS, webhook and chat contacts onto channel types, lists the others', () => {
    const draft = new ImportDraft();
    const contacts = [
      { id: 1, friendly_name: 'Mail', type: 2, value: 'Ops@Example.com' },
      { id: 2, friendly_name: 'Phone', type: 1, value: '+14155550100' },
      { id: 3, friendly_name: 'Hook', type: 5, value: 'https://hooks.example.com/in' },
      { id: 4, friendly_name: 'Teams', type: 20, value: 'https://example.webhook.office.com/x' },
      { id: 5, friendly_name: 'Voice', type: 14, value: '+14155550100' },
    ];
    mapUptimeRobot({ monitors: [], contacts }, draft);
    expect(draft.channels.map((c) => [c.key, c.type])).to.deep.equal([
      ['uptimerobot/contact/1', 'email'],
      ['uptimerobot/contact/2', 'sms'],
      ['uptimerobot/contact/3', 'webhook'],
      ['uptimerobot/contact/4', 'teams'],
    ]);
    expect((draft.channels[0]!.config as { recipients: string[] }).recipients).to.deep.equal(['ops@example.com']);
    expect(draft.unmapped).to.deep.equal([
      "alert contact Voice (5, voice call): no channel type of this service takes UptimeRobot's voice call contacts",
    ]);
  });
});

describe('wsm import: Better Stack', () => {
  const monitor = (id: string, attributes: Record<string, unknown>): JsonApiRecord => ({ id, type: 'monitor', attributes });

  it('maps monitor types onto kinds (timeouts: seconds for HTTP, milliseconds else), lists set settings it has no place for', () => {
    const draft = new ImportDraft();
    const monitors = [
      monitor('1', {
        url: 'https://a.example.com',
        monitor_type: 'keyword_absence',
        required_keyword: 'down',
        check_frequency: 60,
        request_timeout: 30,
        call: true,
      }),
      monitor('2', { url: 'imap.example.com', monitor_type: 'imap', port: '993', check_frequency: 120, request_timeout: 3000 }),
      monitor('3', { url: 'echo.example.com', monitor_type: 'udp', port: 7, request_body: 'ping', required_keyword: 'pong' }),
      monitor('4', { url: 'https://b.example.com', monitor_type: 'playwright' }),
    ];
    mapBetterStack({ monitors, heartbeats: [], pages: [] }, draft);
    expect(byKey(draft, 'betterstack/1')).to.deep.include({ kind: 'website', keywordMode: 'absent', timeoutSeconds: 30, checkInterval: 1 });
    expect(byKey(draft, 'betterstack/2')).to.deep.include({ kind: 'imap-pop', protocol: 'imap', port: 993, timeoutSeconds: 3 });
    expect(byKey(draft, 'betterstack/3')).to.deep.include({ kind: 'udp', payload: 'ping', expectedReply: 'pong' });
    expect(draft.unmapped).to.deep.equal([
      'monitor https://a.example.com (1, keyword_absence): call true: alerting by call is a channel here',
      "monitor https://b.example.com (4, playwright): Better Stack's playwright monitors have no kind here",
    ]);
  });

  it("maps a status page's sections and resources, leaving out components of monitors not imported", () => {
    const draft = new ImportDraft();
    const r = (id: string, attributes: Record<string, unknown>) => ({ id, attributes });
    mapBetterStack(
      {
        monitors: [
          monitor('1', { url: 'https://a.example.com', monitor_type: 'status' }),
          monitor('2', { url: 'x', monitor_type: 'playwright' }),
        ],
        heartbeats: [{ id: '9', attributes: { name: 'Job', period: 600, grace: 0 } }],
        pages: [
          {
            id: '5',
            attributes: { company_name: 'Acme', subdomain: 'acme' },
            sections: [r('7', { name: 'Core', position: 1 })],
            resources: [
              r('a', { resource_id: 1, resource_type: 'Monitor', status_page_section_id: 7, public_name: 'Site' }),
              r('b', { resource_id: 2, resource_type: 'Monitor', status_page_section_id: 7 }),
              r('c', { resource_id: 9, resource_type: 'Heartbeat' }),
            ],
          },
        ],
      },
      draft,
    );
    expect(draft.pages[0]!.groups).to.deep.equal([
      { name: 'Core', components: [{ monitor: 'betterstack/1', name: 'Site' }] },
      { name: 'Services', components: [{ monitor: 'betterstack/heartbeat/9', name: null }] },
    ]);
  });
});

describe('wsm import: Uptime Kuma', () => {
  it('maps monitors (retries, accepted codes, push as heartbeat), lists groups and kinds this service lacks', () => {
    const draft = new ImportDraft();
    const monitors = [
      {
        id: 1,
        name: 'Site',
        type: 'http',
        url: 'https://a.example.com',
        interval: 60,
        maxretries: 4,
        retry_interval: 5,
        timeout: 48,
        accepted_statuscodes_json: '["200-201","404"]',
        active: 1,
        method: 'HEAD',
      },
      { id: 2, name: 'Job', type: 'push', interval: 600, active: 1 },
      { id: 3, name: 'All', type: 'group', active: 1 },
      { id: 4, name: 'Game', type: 'gamedig', hostname: 'g.example.com', active: 1 },
      { id: 5, name: 'Mail', type: 'smtp', hostname: 'mail.example.com', port: 465, smtp_security: 'secure', interval: 60, active: 1 },
    ];
    mapKuma({ ...EMPTY_KUMA, monitors }, draft);
    expect(byKey(draft, 'uptime-kuma/1')).to.deep.include({
      method: 'HEAD',
      alertConsecutiveChecks: 5,
      alertRetryInterval: 10,
      timeoutSeconds: 48,
    });
    expect(byKey(draft, 'uptime-kuma/1')!.expectedStatusCodes).to.deep.equal([200, 201, 404]);
    expect(byKey(draft, 'uptime-kuma/2')).to.deep.include({ monitoringType: 'heartbeat', checkInterval: 10 });
    expect(byKey(draft, 'uptime-kuma/5')).to.deep.include({ kind: 'smtp', tlsMode: 'implicit', port: 465 });
    expect(draft.unmapped).to.deep.equal([
      'monitor All (3, group): a group only holds monitors; its monitors are imported on their own',
      "monitor Game (4, gamedig): Uptime Kuma's gamedig monitors have no kind here",
    ]);
  });

  it('maps notifications by provider, single UTC windows of imported monitors, and lists the rest', () => {
    const draft = new ImportDraft();
    mapKuma(
      {
        ...EMPTY_KUMA,
        monitors: [{ id: 1, name: 'Site', type: 'http', url: 'https://a.example.com', interval: 60, active: 1 }],
        notifications: [
          {
            id: 1,
            name: 'Chat',
            config: JSON.stringify({ type: 'discord', discordWebhookUrl: 'https://discord.com/api/webhooks/1/x' }),
            active: 1,
          },
          { id: 2, name: 'Signal', config: JSON.stringify({ type: 'signal' }), active: 1 },
        ],
        maintenances: [
          { id: 1, title: 'Once', strategy: 'single', start_date: '2030-01-01 01:00:00', end_date: '2030-01-01 02:00:00' },
          { id: 2, title: 'Weekly', strategy: 'recurring-weekday' },
        ],
        monitorMaintenances: [{ monitor_id: 1, maintenance_id: 1 }],
      },
      draft,
    );
    expect(draft.channels[0]).to.deep.include({ key: 'uptime-kuma/notification/1', type: 'discord' });
    expect(draft.windows[0]).to.deep.include({ startTime: '2030-01-01T01:00:00Z', targets: [{ monitor: 'uptime-kuma/1' }] });
    expect(draft.unmapped).to.deep.equal([
      "notification Signal (2, signal): no channel type of this service takes Uptime Kuma's signal notifications",
      'maintenance Weekly (2, recurring-weekday): the recurring-weekday strategy is not mapped (single windows are; write its rrule by hand)',
    ]);
  });
});
