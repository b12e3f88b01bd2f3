import { expect } from 'chai';
import { expectAppError } from '../../../support/expect-app-error';
import {
  afterLapsedLease,
  assertDownloadable,
  assertMayRequest,
  unknownRecipients,
  type DataExport,
} from '../../../../src/domain/data-export/data-export';

const NOW = new Date('2026-12-01T12:00:00Z');
const anExport = (over: Partial<DataExport> = {}): DataExport => ({
  id: '5f1c3a52-54ab-4f2e-9d1e-1b2c3d4e5f60',
  organizationId: 1,
  requestedBy: 'admin-1',
  recipientEmails: ['a@example.com'],
  status: 'ready',
  rowsDone: 10,
  rowsTotal: 10,
  attempts: 1,
  fileBytes: 100,
  error: null,
  createdAt: new Date('2026-12-01T08:00:00Z'),
  startedAt: null,
  finishedAt: null,
  expiresAt: new Date('2026-12-08T08:00:00Z'),
  ...over,
});

describe('data export rules', () => {
  it('refuses a request while an export is queued or generating, naming it (exportAlreadyRunning)', () => {
    for (const status of ['queued', 'generating'] as const) {
      const error = expectAppError(() => assertMayRequest(anExport({ status }), null, NOW, 6), 'exportAlreadyRunning');
      expect(error.details).to.deep.equal({
        export: { id: anExport().id, status, createdAt: '2026-12-01T08:00:00.000Z', rowsDone: 10, rowsTotal: 10 },
      });
    }
  });

  it('answers exportAlreadyRunning, not exportCooldown, when the last export is the running one', () => {
    expectAppError(() => assertMayRequest(null, anExport({ status: 'queued', createdAt: NOW }), NOW, 6), 'exportAlreadyRunning');
  });

  it('refuses a request within the cooldown of the last export that did not fail, saying when to come back', () => {
    const error = expectAppError(
      () => assertMayRequest(null, anExport({ createdAt: new Date('2026-12-01T08:00:00Z') }), NOW, 6),
      'exportCooldown',
    );
    expect(error.details).to.deep.equal({ cooldownHours: 6, retryAfter: 2 * 3600 });
    expect(() => assertMayRequest(null, anExport({ createdAt: new Date('2026-12-01T06:00:00Z') }), NOW, 6)).not.to.throw();
    expect(() => assertMayRequest(null, null, NOW, 6)).not.to.throw();
  });

  it('lists recipients who are not members, comparing addresses without case', () => {
    expect(unknownRecipients(['Ada@Example.com', 'eve@elsewhere.example'], ['ada@example.com'])).to.deep.equal(['eve@elsewhere.example']);
  });

  it('downloads only a ready export within its window', () => {
    expect(() => assertDownloadable(anExport(), NOW)).not.to.throw();
    for (const status of ['queued', 'generating', 'failed'] as const) {
      expect(expectAppError(() => assertDownloadable(anExport({ status }), NOW), 'exportNotReady').details).to.deep.equal({ status });
    }
    expectAppError(() => assertDownloadable(anExport({ status: 'expired' }), NOW), 'exportExpired');
    expectAppError(() => assertDownloadable(anExport({ expiresAt: NOW }), NOW), 'exportExpired');
  });

  it('generates again an export whose worker stopped, until the third try, then fails it', () => {
    expect([1, 2, 3].map((attempts) => afterLapsedLease({ attempts }))).to.deep.equal(['queued', 'queued', 'failed']);
  });
});
