import { expect } from 'chai';
import { decodePublishedEvent, PUBLISHED_EVENT_KINDS } from '../../../src/infrastructure/event-catalogue/published-events';
import { incidentEventCodec, type IncidentEvent } from '../../../src/domain/incidents/events';
import { maintenanceEventCodec, type MaintenanceEvent } from '../../../src/domain/maintenance/events';
import { watchedAssetEventCodec, type WatchedAssetEvent } from '../../../src/domain/tenancy/events';
import { identityEventCodec, type SecurityNoticeEvent } from '../../../src/domain/identity/events';
import { securityNoticeMessages } from '../../../src/application/notifications/send-security-notices';
import { relayedEventOf } from '../../../src/infrastructure/notifications/relayed-events';

const at = new Date('2026-12-14T10:00:00.000Z');
const opened: IncidentEvent = {
  kind: 'incidentOpened',
  version: 1,
  organizationId: 7,
  customerId: 3,
  monitorId: 11,
  incidentPublicId: 'inc-1',
  occurredAt: at,
  summary: 'Shop is down',
  data: { reasonCode: 'timeout' },
};
const started: MaintenanceEvent = {
  kind: 'maintenance.started',
  version: 1,
  organizationId: 7,
  customerId: null,
  windowId: 'win-1',
  title: 'Upgrade',
  occurrence: { start: at, end: new Date('2026-12-14T11:00:00.000Z') },
  targets: [{ type: 'monitor', id: 'm-1' }],
  occurredAt: at,
};
/** A row as the outbox holds it after the JSON round trip. */
const rowOf = (id: number, record: { organizationId: number; kind: string; payload: unknown }) => ({
  id: String(id),
  organization_id: record.organizationId,
  kind: record.kind,
  payload: JSON.parse(JSON.stringify(record.payload)) as Record<string, unknown>,
});

describe('the event catalogue: one decoder of outbox rows', () => {
  it("reads each publisher's rows back as its typed event, version included", () => {
    for (const [event, codec] of [
      [opened, incidentEventCodec],
      [started, maintenanceEventCodec],
    ] as const) {
      const decoded = decodePublishedEvent(rowOf(5, (codec.encode as (e: typeof event) => ReturnType<typeof codec.encode>)(event)));
      expect(decoded).to.deep.equal({ ok: true, id: 5, event });
    }
  });

  it('reads a row written before events carried a version as version 1', () => {
    const { payload, ...record } = incidentEventCodec.encode(opened);
    const { version: _version, ...legacy } = payload as Record<string, unknown>;
    const decoded = decodePublishedEvent(rowOf(6, { ...record, payload: legacy }));
    expect(decoded.ok && decoded.event.version).to.equal(1);
  });

  it('refuses an unknown kind, an unknown version, a payload that does not fit and a row of another organization', () => {
    const record = incidentEventCodec.encode(opened);
    const refusals = [
      rowOf(1, { ...record, kind: 'incidentExploded' }),
      rowOf(2, { ...record, payload: { ...record.payload, version: 2 } }),
      rowOf(3, { ...record, payload: { ...record.payload, monitorId: 'eleven' } }),
      rowOf(4, { ...record, payload: { ...record.payload, occurredAt: 'yesterday' } }),
      rowOf(5, { ...record, organizationId: 8 }),
      { ...rowOf(6, record), payload: null },
    ].map(decodePublishedEvent);
    expect(refusals.map((r) => r.ok)).to.deep.equal([false, false, false, false, false, false]);
    expect(refusals.map((r) => (r.ok ? null : r.reason))).to.deep.equal([
      'unknown event incidentExploded',
      'incidentOpened: version 2 is unknown',
      'incidentOpened: field monitorId is missing or of the wrong type',
      'incidentOpened: field occurredAt is missing or of the wrong type',
      "incidentOpened: organizationId is not the row's",
      'incidentOpened: no payload',
    ]);
  });

  it('refuses a watch event whose mark is none a delivery can set', () => {
    const event: WatchedAssetEvent = {
      kind: 'ip.listed',
      version: 1,
      organizationId: 7,
      customerId: 3,
      occurredAt: at,
      summary: '192.0.2.1 is listed',
      data: {},
      watch: { type: 'ip', id: 4, mark: 'listed' },
    };
    const record = watchedAssetEventCodec.encode(event);
    expect(decodePublishedEvent(rowOf(1, record))).to.deep.equal({ ok: true, id: 1, event });
    const bad = decodePublishedEvent(rowOf(2, { ...record, payload: { ...record.payload, watch: { type: 'ip', id: 4, mark: 'gone' } } }));
    expect(bad).to.deep.include({ ok: false, reason: 'ip.listed.watch: field mark is missing or of the wrong type' });
  });

  it('has each kind from one publisher only, and tells channels what the rows said before events were typed', () => {
    expect(new Set(PUBLISHED_EVENT_KINDS).size).to.equal(PUBLISHED_EVENT_KINDS.length);
    expect(relayedEventOf(9, started)).to.deep.equal({
      id: 9,
      organizationId: 7,
      kind: 'maintenance.started',
      customerId: null,
      monitorId: null,
      incidentId: null,
      occurredAt: at.toISOString(),
      summary: 'Maintenance started: Upgrade',
      data: {
        maintenanceWindowId: 'win-1',
        title: 'Upgrade',
        startTime: at.toISOString(),
        endTime: '2026-12-14T11:00:00.000Z',
        targets: [{ type: 'monitor', id: 'm-1' }],
      },
    });
  });

  it("reads the identity context's security notice back, refuses one whose administrator has no address, and relays none to channels", () => {
    const notice: SecurityNoticeEvent = {
      kind: 'identity.securityNotice',
      version: 1,
      organizationId: 7,
      occurredAt: at,
      subject: 'Account deletion requested',
      body: 'Ann <ann@example.com> asked to delete their account.',
      administrators: [
        { userId: 'u-1', email: 'boss@example.com' },
        { userId: 'u-2', email: 'ops@example.com' },
      ],
    };
    const record = identityEventCodec.encode(notice);
    expect(record.summary).to.equal('Account deletion requested');
    expect(decodePublishedEvent(rowOf(3, record))).to.deep.equal({ ok: true, id: 3, event: notice });
    const bad = decodePublishedEvent(rowOf(4, { ...record, payload: { ...record.payload, administrators: [{ userId: 'u-1' }] } }));
    expect(bad).to.deep.include({ ok: false, reason: 'identity.securityNotice: an administrator is not a user id and an e-mail address' });
    expect(relayedEventOf(3, notice)).to.equal(null);
    expect(securityNoticeMessages(3, notice)).to.deep.equal(
      ['u-1', 'u-2'].map((userId, i) => ({
        organizationId: 7,
        customerId: null,
        recipient: { type: 'email', address: notice.administrators[i]!.email },
        event: 'identity.securityNotice',
        subject: 'Account deletion requested',
        text: 'Ann <ann@example.com> asked to delete their account.',
        dedupKey: `securityNotice:3:${userId}`,
      })),
    );
  });
});
