import { expect } from 'chai';
import { codeOf, expectAppError } from '../../../support/expect-app-error';
import {
  afterLapsedLease,
  assertDownloadable,
  assertMayRequest,
  EXPORT_DOWNLOAD_WINDOW_MS,
  EXPORT_STATUSES,
  exportSummary,
  isRunning,
  MAX_EXPORT_ATTEMPTS,
  unknownRecipients,
  type DataExport,
} from '../../../../src/domain/data-export/data-export';

const NOW = new Date('2026-12-01T12:00:00Z');
const HOUR = 3_600_000;
const anExport = (over: Partial<DataExport> = {}): DataExport => ({
  id: '5f1c3a52-54ab-4f2e-9d1e-1b2c3d4e5f60',
  organizationId: 1,
  requestedBy: 'admin-1',
  recipientEmails: ['a@example.com'],
  status: 'ready',
  rowsDone: 4,
  rowsTotal: null,
  attempts: 1,
  fileBytes: 100,
  error: null,
  createdAt: new Date('2026-11-20T08:00:00Z'),
  startedAt: null,
  finishedAt: null,
  expiresAt: new Date('2026-12-08T08:00:00Z'),
  ...over,
});

describe('Data export states and limits', () => {
  it('counts queued and generating as running, and no other state', () => {
    expect(EXPORT_STATUSES.filter((status) => isRunning({ status }))).to.deep.equal(['queued', 'generating']);
  });

  it('names the export in the way by id, state, creation time and progress (rowsTotal null until counted)', () => {
    expect(exportSummary(anExport({ status: 'generating' }))).to.deep.equal({
      id: '5f1c3a52-54ab-4f2e-9d1e-1b2c3d4e5f60',
      status: 'generating',
      createdAt: '2026-11-20T08:00:00.000Z',
      rowsDone: 4,
      rowsTotal: null,
    });
  });

  it('prefers the running export over a finished last one when both are known', () => {
    const running = anExport({ id: 'running', status: 'queued' });
    const error = expectAppError(() => assertMayRequest(running, anExport({ createdAt: NOW }), NOW, 6), 'exportAlreadyRunning');
    expect((error.details as { export: { id: string } }).export.id).to.equal('running');
  });

  it('opens the next request exactly when the cooldown ends, and rounds the wait up to whole seconds', () => {
    const last = (msAgo: number) => anExport({ createdAt: new Date(NOW.getTime() - msAgo) });
    expect(codeOf(() => assertMayRequest(null, last(6 * HOUR), NOW, 6))).to.equal(undefined);
    const justInside = expectAppError(() => assertMayRequest(null, last(6 * HOUR - 1), NOW, 6), 'exportCooldown');
    expect(justInside.details).to.deep.equal({ cooldownHours: 6, retryAfter: 1 });
    expect(expectAppError(() => assertMayRequest(null, last(1500), NOW, 1), 'exportCooldown').details).to.deep.equal({
      cooldownHours: 1,
      retryAfter: 3599,
    });
  });

  it('holds an expired export to the cooldown too (only failed ones never count), and a zero cooldown holds nothing', () => {
    expect(codeOf(() => assertMayRequest(null, anExport({ status: 'expired', createdAt: NOW }), NOW, 6))).to.equal('exportCooldown');
    expect(codeOf(() => assertMayRequest(null, anExport({ createdAt: NOW }), NOW, 0))).to.equal(undefined);
  });

  it('keeps recipients as written, keeps duplicates of unknown ones, and knows none without members', () => {
    expect(unknownRecipients([], ['a@example.com'])).to.deep.equal([]);
    expect(unknownRecipients(['A@example.com', 'b@example.com'], [])).to.deep.equal(['A@example.com', 'b@example.com']);
    expect(unknownRecipients(['a@EXAMPLE.com', 'x@example.com'], ['A@example.COM'])).to.deep.equal(['x@example.com']);
  });

  it('lets a ready export be downloaded up to the last millisecond of its window, and one without an expiry at any time', () => {
    expect(codeOf(() => assertDownloadable(anExport({ expiresAt: new Date(NOW.getTime() + 1) }), NOW))).to.equal(undefined);
    expect(codeOf(() => assertDownloadable(anExport({ expiresAt: NOW }), NOW))).to.equal('exportExpired');
    expect(codeOf(() => assertDownloadable(anExport({ expiresAt: null }), NOW))).to.equal(undefined);
    expect(codeOf(() => assertDownloadable(anExport({ status: 'expired', expiresAt: null }), NOW))).to.equal('exportExpired');
  });

  it('answers exportNotReady for a failed export even after its would-be window (it never had a file)', () => {
    const failed = anExport({ status: 'failed', expiresAt: new Date(NOW.getTime() - HOUR) });
    expectAppError(() => assertDownloadable(failed, NOW), 'exportNotReady', { status: 'failed' });
  });

  it('keeps archives seven days and tries generation three times', () => {
    expect(EXPORT_DOWNLOAD_WINDOW_MS).to.equal(7 * 24 * HOUR);
    expect(MAX_EXPORT_ATTEMPTS).to.equal(3);
    expect(afterLapsedLease({ attempts: 0 })).to.equal('queued');
    expect(afterLapsedLease({ attempts: MAX_EXPORT_ATTEMPTS - 1 })).to.equal('queued');
    expect(afterLapsedLease({ attempts: MAX_EXPORT_ATTEMPTS })).to.equal('failed');
    expect(afterLapsedLease({ attempts: MAX_EXPORT_ATTEMPTS + 1 })).to.equal('failed');
  });
});
