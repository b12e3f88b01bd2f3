import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { CheckerRegistry } from '../../../src/application/checks/checker-registry';
import { HeartbeatChecker } from '../../../src/application/checks/heartbeat-checker';
import type { ScreenshotStore } from '../../../src/application/checks/ports';
import type { TargetPolicy } from '../../../src/application/shared/target-policy';
import { checkRequestFor, type SchedulableMonitor } from '../../../src/application/scheduling/monitor-check-request';
import { kindOf, type MonitorKindDescriptor, type PerKindType } from '../../../src/domain/monitoring/kinds';
import { MONITOR_KINDS, PER_KIND_TYPES, type MonitorKind } from '../../../src/domain/monitoring/monitor-kind';
import { CHANNEL_TYPES, CHAT_TYPES, normalizeChannelConfig, type ChannelType } from '../../../src/domain/notifications/channel-config';
import { chatPayload, type NotificationMessage } from '../../../src/domain/notifications/notification-message';
import { notifierOf, transportOf } from '../../../src/domain/notifications/notifiers';
import type { ChromiumBrowser } from '../../../src/infrastructure/protocols/browser/chromium-browser';
import { protocolCheckers } from '../../../src/infrastructure/protocols/checker-set';
import { MONITOR_KINDS_LISTED, urlIsSecret } from '../../../src/interfaces/cli/resources';
import { describeApi } from '../../../src/main/api-description';
import { catalogue } from '../../../scripts/console-catalogue';
import { MATRIX } from '../../integration/security/tenancy-matrix.table';

/**
 * The two extension guides of docs/architecture.md ("Adding a notification channel type", "Adding a
 * monitor kind") hold: every file they name exists, and every place they call total lists every
 * type and kind the domain declares (CHANNEL_TYPES, MONITOR_KINDS), so adding one and forgetting a
 * place fails here or in the typecheck.
 */
const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function section(heading: string): string {
  const parts = read('docs/architecture.md').split(/^## /m);
  const found = parts.find((part) => part.startsWith(`${heading}\n`));
  if (!found) throw new Error(`docs/architecture.md has no section "## ${heading}"`);
  return found;
}

/** The repository paths a text names in backticks (placeholders such as `<kind>` left out). */
const pathsIn = (text: string): string[] => [
  ...new Set(
    [...text.matchAll(/`([^`\s]+)`/g)]
      .map((m) => m[1]!)
      .filter((p) => /^(src|test|console|schemas|docs|scripts)\//.test(p) && !/[<>*]/.test(p)),
  ),
];

/** The keys written in the object literal that follows `name` in a source file (`name: ...` or `'name': ...`). */
function tableIn(file: string, name: string): string {
  const source = read(file);
  const at = source.search(new RegExp(`\\b(const|let|type)\\s+${name}\\b|single\\(${name}\\b`));
  if (at < 0) throw new Error(`${file} declares no ${name}`);
  const open = source.indexOf('{', source.indexOf('=', at));
  let depth = 0;
  for (let i = open; i < source.length; i += 1) {
    if (source[i] === '{') depth += 1;
    if (source[i] === '}' && --depth === 0) return source.slice(open, i + 1);
  }
  throw new Error(`${file}: ${name} is not closed`);
}
const hasKey = (table: string, key: string) => new RegExp(`[\\s{,]'?${key}'?\\s*:`).test(table);

interface Schema {
  $ref?: string;
  enum?: string[];
  properties?: Record<string, Schema>;
}
const api = describeApi() as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, Schema> } };
const wsmSchema: unknown = JSON.parse(read('schemas/wsm-file.schema.json'));

/** Every object of a JSON document, depth first. */
function* objectsOf(value: unknown): Generator<Record<string, unknown>> {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield value as Record<string, unknown>;
  for (const child of Object.values(value)) yield* objectsOf(child);
}

const GUIDES = {
  'Adding a notification channel type': [
    'src/domain/',
    'src/application/',
    'src/infrastructure/',
    'src/interfaces/http/',
    'console/src/screens/channels/',
  ],
  'Adding a monitor kind': ['src/domain/', 'src/application/', 'src/infrastructure/', 'src/interfaces/http/', 'console/src/monitors/'],
} as const;

describe('extension guides (docs/architecture.md) hold', () => {
  for (const [heading, layers] of Object.entries(GUIDES)) {
    describe(heading, () => {
      const text = section(heading);
      const named = pathsIn(text);

      it('sees the paths it names (the scan is not blind)', () => {
        expect(pathsIn('`src/a.ts` `src/<kind>/` `npm test` `docs/x.md`')).to.deep.equal(['src/a.ts', 'docs/x.md']);
        expect(named.length).to.be.greaterThan(20);
      });

      it('names only files and folders that exist', () => {
        const missing = named.filter(
          (p) => !existsSync(path.join(ROOT, p)) || (p.endsWith('/') && !statSync(path.join(ROOT, p)).isDirectory()),
        );
        expect(missing, 'paths the guide names that are not in the repository').to.deep.equal([]);
      });

      it('names a file in every step, and every layer, the wsm schema, data export, docs and tests', () => {
        // A guide is a few steps now (the descriptor, then what only a new transport or check needs),
        // each naming where it happens; it was ten when each list of types was edited by hand.
        const steps = text.split(/^\d+\. /m).slice(1);
        expect(steps.length).to.be.at.least(3);
        steps.forEach((step, i) => expect(pathsIn(step), `step ${i + 1} names no file`).to.not.be.empty);
        for (const prefix of [
          ...layers,
          'schemas/wsm-file.schema.json',
          'src/infrastructure/data-export/',
          'docs/',
          'test/unit/',
          'test/integration/',
        ]) {
          expect(
            named.some((p) => p.startsWith(prefix)),
            `nothing under ${prefix}`,
          ).to.equal(true);
        }
      });
    });
  }
});

describe('every notification channel type has its places', () => {
  it('has a config the domain accepts', () => {
    for (const type of CHANNEL_TYPES) expect(() => normalizeChannelConfig(type, notifierOf(type).sample), type).to.not.throw();
  });

  it('is in the API document (create, update, read) and the wsm file schema', () => {
    const { schemas } = api.components;
    expect(schemas.CreateNotificationChannelBody!.properties!.type!.enum).to.deep.equal([...CHANNEL_TYPES]);
    expect(schemas.UpdateNotificationChannelBody!.properties!.type!.enum).to.deep.equal([...CHANNEL_TYPES]);
    expect(schemas.NotificationChannel!.properties!.type!.enum).to.deep.equal([...CHANNEL_TYPES]);
    const enums = [...objectsOf(wsmSchema)].map((o) => o.enum).filter((e): e is string[] => Array.isArray(e) && e.includes('webhook'));
    expect(enums).to.deep.include([...CHANNEL_TYPES]);
  });

  it("has its transport's sender in the NOTIFICATION_SENDERS table", () => {
    const table = tableIn('src/main/modules/notification-delivery.bindings.ts', 'NOTIFICATION_SENDERS');
    for (const type of CHANNEL_TYPES) expect(hasKey(table, transportOf(type)), type).to.equal(true);
  });

  it('has its own chat body when it is a chat service', () => {
    const message: NotificationMessage = {
      id: 'd1',
      event: 'incident.opened',
      occurredAt: '2026-11-01T00:00:00.000Z',
      summary: 'Shop is down',
      incidentId: 'i1',
      monitorId: 1,
      customerId: 1,
      data: {},
    };
    const bodies = CHAT_TYPES.map((type) => JSON.stringify(chatPayload(type, message, null)));
    expect(new Set(bodies).size).to.equal(CHAT_TYPES.length);
  });

  it('says whether its URL is a secret for monitoring as code (chat URLs are)', () => {
    for (const type of CHANNEL_TYPES) expect(urlIsSecret(type), type).to.be.a('boolean');
    for (const type of CHAT_TYPES) expect(urlIsSecret(type), type).to.equal(true);
  });

  it("is in the console's catalogue with its descriptor's label and fields (the form is drawn from it)", () => {
    const entries = catalogue().channelTypes;
    expect(entries.map((e) => e.type)).to.deep.equal([...CHANNEL_TYPES]);
    for (const entry of entries) {
      expect(entry.label, entry.type).to.equal(notifierOf(entry.type as ChannelType).label);
      expect(entry.fields.map((f) => f.label)).to.deep.equal(notifierOf(entry.type as ChannelType).fields.map((f) => f.label));
    }
  });
});

const aMonitor = (kind: MonitorKind, overrides: Partial<SchedulableMonitor>): SchedulableMonitor => ({
  id: 1,
  organizationId: 1,
  customerId: 1,
  kind,
  monitoringType: kind === 'website' ? 'http' : kind,
  checkIntervalSeconds: 60,
  timeoutSeconds: 30,
  url: null,
  hostname: 'svc.example.com',
  port: null,
  checkMode: null,
  connectHost: null,
  connectPort: null,
  connectTlsInsecure: false,
  config: {},
  credentials: null,
  lastHeartbeatAt: null,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  ...overrides,
});

/** A per-kind monitor as its descriptor's sample creates it. */
function sampleMonitor(type: PerKindType): SchedulableMonitor {
  const { sample, fields } = kindOf(type);
  const config = Object.fromEntries(
    fields.filter((f) => f.name in sample || f.default !== undefined).map((f) => [f.name, sample[f.name] ?? f.default]),
  );
  return aMonitor(type, {
    hostname: sample.hostname as string,
    port: (sample.port as number | undefined) ?? null,
    config,
    credentials: (sample.credentials as SchedulableMonitor['credentials'] | undefined) ?? null,
  });
}

/** One monitor per kind: the per-kind ones from their descriptors' samples. */
const SAMPLE_MONITORS: Record<MonitorKind, SchedulableMonitor> = {
  website: aMonitor('website', { url: 'https://shop.example.com/', hostname: null }),
  ...(Object.fromEntries(PER_KIND_TYPES.map((type) => [type, sampleMonitor(type)])) as Record<PerKindType, SchedulableMonitor>),
};

const pascal = (type: string) => type.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase());

describe('every monitor kind has its places', () => {
  it('becomes a check that a registered checker runs (the service and probes share the set)', () => {
    const settings = {
      dnsServers: [],
      dnsblZones: [],
      rdapBootstrapUrl: 'https://rdap.example.com/',
      whoisServer: 'whois.example.com',
      heloName: 'monitor.example.com',
      extraCa: [],
      browser: { executablePath: '/nonexistent/chromium', maxConcurrent: 1, stepWaitMs: 1000 },
      userAgent: 'guide-test',
    };
    const checkers = protocolCheckers(settings, {} as TargetPolicy, {} as ChromiumBrowser, {} as ScreenshotStore);
    const registry = new CheckerRegistry([new HeartbeatChecker(), ...checkers]);
    for (const kind of MONITOR_KINDS) {
      const request = checkRequestFor(SAMPLE_MONITORS[kind]);
      expect(request, kind).to.not.equal(null);
      expect(registry.kinds(), kind).to.include(request!.kind);
    }
  });

  it('has its routes and schemas in the API document', () => {
    expect(api.components.schemas.Monitor!.properties!.type!.enum).to.deep.equal([...MONITOR_KINDS]);
    for (const type of PER_KIND_TYPES) {
      expect(Object.keys(api.paths[`/api/monitors/${type}`] ?? {}), type).to.include.members(['get', 'post']);
      expect(Object.keys(api.paths[`/api/monitors/${type}/{id}`] ?? {}), type).to.include.members(['get', 'patch', 'delete']);
      expect(api.paths, type).to.have.property(`/api/monitors/${type}/{id}/trigger-check`);
      expect(api.paths, type).to.have.property(`/api/monitors/${type}/{id}/check-history`);
      expect(api.components.schemas, type).to.include.keys(`${pascal(type)}MonitorCreate`, `${pascal(type)}MonitorPatch`);
    }
  });

  it('has an entry in the wsm file schema and in the kinds monitoring as code lists', () => {
    const kinds = [...objectsOf(wsmSchema)]
      .map((o) => (o.kind as { const?: unknown } | undefined)?.const)
      .filter((k) => typeof k === 'string');
    expect(kinds).to.include.members([...MONITOR_KINDS]);
    expect([...MONITOR_KINDS_LISTED].sort()).to.deep.equal([...MONITOR_KINDS].sort());
  });

  it('needs no migration: monitors.kind has no check constraint listing the kinds (the registry decides)', () => {
    const dir = 'src/infrastructure/persistence/migrations';
    const declaring = readdirSync(path.join(ROOT, dir))
      .filter((f) => /^\d+-.+\.ts$/.test(f))
      .sort()
      .filter((f) => /monitors_kind_check|CREATE TABLE monitors \(/.test(read(`${dir}/${f}`)));
    const newest = read(`${dir}/${declaring.at(-1)!}`);
    const up = newest.slice(newest.indexOf('async up()'), newest.indexOf('async down()'));
    expect(up, declaring.at(-1)).to.include('DROP CONSTRAINT IF EXISTS monitors_kind_check');
    expect(up, declaring.at(-1)).to.not.match(/CHECK \(kind IN/);
  });

  it('has its rows in the tenancy matrix (derived from the registry, so its hostile cases run)', () => {
    for (const type of PER_KIND_TYPES) {
      expect(MATRIX, type).to.include.keys(
        `POST /api/monitors/${type}`,
        `GET /api/monitors/${type}/{id}`,
        `DELETE /api/monitors/${type}/{id}`,
      );
    }
  });

  // The console's kind list, labels, hints, headings and per-kind fields are drawn from the generated
  // catalogue (console/src/monitors/kind-fields.ts, typed against the API's Monitor.type), not from
  // tables of its own: what must hold is that every descriptor reaches the catalogue whole.
  it("is in the console's catalogue with its descriptor's words, rules and every field (the form is drawn from it)", () => {
    const entries = catalogue().monitorKinds;
    expect(entries.map((e) => e.type)).to.deep.equal([...PER_KIND_TYPES]);
    for (const entry of entries) {
      const kind = kindOf(entry.type as PerKindType);
      const { label, summary, hostname, port, service, sample } = kind as MonitorKindDescriptor;
      const { fields, ...rules } = entry;
      const hostnameExample = (sample as { hostname: string }).hostname;
      expect(rules, entry.type).to.deep.equal({
        type: kind.type,
        label,
        summary,
        hostname,
        hostnameExample,
        port,
        ...(service ? { service } : {}),
      });
      expect(fields, entry.type).to.deep.equal(kind.fields);
    }
  });
});
