import { expect } from 'chai';
import { monitorRecord, websiteRecord, withCurrentState } from '../../../../src/application/monitoring/monitor-records';
import type { MonitorListItem, MonitorView } from '../../../../src/application/monitoring/ports';
import { DEFAULT_CHECK_CONFIG } from '../../../../src/domain/monitoring/check-config';
import { WEBSITE_CONFIG_DEFAULTS } from '../../../../src/domain/monitoring/monitor-config';
import { WebsiteSchema, MonitorSchema } from '../../../../src/interfaces/http/monitoring/response.schemas';

const view = (over: Partial<MonitorView> = {}): MonitorView => ({
  id: 7,
  dependsOn: [],
  publicId: '4f1c1a52-5d8e-4a43-9d39-3c1f0a4b6e01',
  organizationId: 1,
  customerId: 10,
  kind: 'website',
  monitoringType: 'http',
  name: 'Shop',
  status: 'active',
  managementType: 'managed',
  key: null,
  checkInterval: 5,
  timeoutSeconds: 30,
  locations: ['eu-west'],
  url: 'https://www.example.com/',
  hostname: null,
  port: null,
  checkMode: null,
  config: {},
  connectHost: null,
  connectPort: null,
  connectTlsInsecure: false,
  hasCredentials: false,
  heartbeatToken: null,
  lastHeartbeatAt: null,
  alertConsecutiveChecks: 2,
  alertRetryInterval: 20,
  alertLocationThreshold: '0.50',
  alertLocationThresholdCount: 1,
  alertReminderInterval: 60,
  sslExpiryReminderInterval: null,
  dnsblReminderInterval: null,
  createdAt: new Date('2026-11-22T10:00:00.123Z'),
  updatedAt: new Date('2026-11-22T11:00:00Z'),
  ...over,
});
const item = (over: Partial<MonitorView> = {}): MonitorListItem => ({
  monitor: view(over),
  customerPublicId: '0b6f3c55-8f0e-4a8e-a1c4-5c0f2c9e7d10',
  tags: [{ id: 3, publicId: 'a9b0c1d2-e3f4-4a5b-8c6d-7e8f9a0b1c2d', name: 'edge', color: '#3B82F6' }],
  currentState: {
    status: 'unknown',
    reason: 'silentLocations',
    silentLocations: ['us-east'],
    dependencyRoot: null,
    unknownSince: new Date('2026-11-22T12:00:00Z'),
  },
});

describe('monitor records', () => {
  it('give a website every setting: the stored one, else the default', () => {
    const record = websiteRecord(item({ config: { method: 'HEAD', keyword: null, checkSizeEnabled: true, minPageSize: null } }));
    expect(record).to.include({
      method: 'HEAD',
      keyword: null,
      checkSizeEnabled: true,
      minPageSize: null,
      body: WEBSITE_CONFIG_DEFAULTS.body,
    });
    expect(record).to.include({
      followRedirects: WEBSITE_CONFIG_DEFAULTS.followRedirects,
      sslNoticeDays: DEFAULT_CHECK_CONFIG.sslNoticeDays,
    });
    expect(record.createdAt).to.equal('2026-11-22T10:00:00.123Z');
    // As served: the stored record with its current state added on read.
    expect(() => WebsiteSchema.strict().parse(JSON.parse(withCurrentState(JSON.stringify(record), item().currentState)))).not.to.throw();
  });

  it("show a heartbeat's token, ping path and last ping, and nobody else's", () => {
    const at = new Date('2026-11-22T12:00:00Z');
    expect(websiteRecord(item({ monitoringType: 'heartbeat', heartbeatToken: 'hb_x', lastHeartbeatAt: at, url: null }))).to.include({
      heartbeatToken: 'hb_x',
      heartbeatUrl: '/api/heartbeats/hb_x',
      lastHeartbeatAt: at.toISOString(),
    });
    expect(websiteRecord(item({ heartbeatToken: 'hb_stale', lastHeartbeatAt: at }))).to.include({
      heartbeatToken: null,
      heartbeatUrl: null,
      lastHeartbeatAt: null,
    });
  });

  it('share the common fields between websites and per-kind monitors', () => {
    const website = websiteRecord(item());
    const dns = monitorRecord(
      item({
        kind: 'dns',
        monitoringType: 'dns',
        hostname: 'example.com',
        config: { recordType: 'A', expectedValues: [], resolver: null },
      }),
    );
    expect(() => MonitorSchema.strict().parse(dns)).not.to.throw();
    const common = Object.keys(website).filter((key) => key in dns && key !== 'monitoringType');
    expect(common).to.include.members(['id', 'customerPublicId', 'locations', 'alertLocationThreshold', 'tags', 'createdAt', 'updatedAt']);
    for (const key of common) expect(dns[key as keyof typeof dns], key).to.deep.equal(website[key as keyof typeof website]);
  });

  it('add the current state to a stored website document on read, as per-kind records carry it', () => {
    const stored = JSON.stringify(websiteRecord(item()));
    expect(JSON.parse(stored)).not.to.have.property('currentState');
    const shown = JSON.parse(withCurrentState(stored, item().currentState));
    expect(() => WebsiteSchema.strict().parse(shown)).not.to.throw();
    expect(shown.currentState).to.deep.equal({
      status: 'unknown',
      reason: 'silentLocations',
      silentLocations: ['us-east'],
      unknownSince: '2026-11-22T12:00:00.000Z',
    });
    expect(monitorRecord(item({ kind: 'tcp', monitoringType: 'tcp', hostname: 'example.com' })).currentState).to.deep.equal(
      shown.currentState,
    );
  });
});
