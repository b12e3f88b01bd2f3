import { aDataExportWorld } from '../../../support/builders/data-export';
import { expect } from 'chai';
import type { DataExport } from '../../../../src/domain/data-export/data-export';
import { anActor } from '../../../support/builders';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';

const ORG = 1;
const HOUR = 3_600_000;

const anExport = (over: Partial<DataExport> = {}): DataExport => ({
  id: '5f1c3a52-54ab-4f2e-9d1e-1b2c3d4e5f60',
  organizationId: ORG,
  requestedBy: 'admin-1',
  recipientEmails: ['ops@agency.example'],
  status: 'ready',
  rowsDone: 10,
  rowsTotal: 10,
  attempts: 1,
  fileBytes: 100,
  error: null,
  createdAt: new Date('2026-05-20T08:00:00Z'),
  startedAt: null,
  finishedAt: null,
  expiresAt: new Date('2026-05-27T08:00:00Z'),
  ...over,
});

describe('Data export: requesting one (use case)', () => {
  it('queues an export for the requester when no recipients are named, and asks the job system to start', async () => {
    const { request, exports, trigger, clock } = aDataExportWorld();
    const queued = await request.execute(anActor().build(), {});
    expect(queued).to.deep.include({
      organizationId: ORG,
      requestedBy: 'admin-1',
      status: 'queued',
      recipientEmails: ['Admin@Agency.example'],
      rowsDone: 0,
      rowsTotal: null,
      attempts: 0,
      fileBytes: null,
      expiresAt: null,
    });
    expect(queued.createdAt.toISOString()).to.equal(clock.now().toISOString());
    expect(exports.get(queued.id)?.status).to.equal('queued');
    expect(trigger.pokes).to.equal(1);
  });

  it('sends the link to the named members only, once each, and to nobody when the requester is no member', async () => {
    const { request, exports } = aDataExportWorld();
    const queued = await request.execute(anActor().build(), { recipientEmails: ['ops@agency.example', 'ops@agency.example'] });
    expect(queued.recipientEmails).to.deep.equal(['ops@agency.example']);
    const other = aDataExportWorld();
    const orphan = await other.request.execute(anActor().withUser('not-a-member').build(), {});
    expect(orphan.recipientEmails).to.deep.equal([]);
    expect(exports.rows.size).to.equal(1);
  });

  it('refuses recipients who are not members of the organization, listing them as written (invalidExportRecipient)', async () => {
    const { request, exports, trigger } = aDataExportWorld();
    await expectAppErrorAsync(
      request.execute(anActor().build(), { recipientEmails: ['OPS@agency.example', 'boss@other.example', 'Eve@Evil.example'] }),
      'invalidExportRecipient',
      { unknown: ['boss@other.example', 'Eve@Evil.example'] },
    );
    expect(exports.rows.size).to.equal(0);
    expect(trigger.pokes).to.equal(0);
  });

  it('is for organization administrators only', async () => {
    const { request, exports } = aDataExportWorld();
    expect(await codeOf(request.execute(anActor().withRole('editor').build(), {}))).to.equal('roleForbidden');
    expect(await codeOf(request.execute(anActor().withRole('readonly').build(), {}))).to.equal('roleForbidden');
    expect(await codeOf(request.execute(anActor().forCustomer(3).build(), {}))).to.equal('roleForbidden');
    expect(exports.rows.size).to.equal(0);
  });

  it('refuses a second export while one is queued or generating, naming it (exportAlreadyRunning)', async () => {
    const { request, exports, trigger } = aDataExportWorld();
    const first = await request.execute(anActor().build(), {});
    const error = await expectAppErrorAsync(request.execute(anActor().build(), {}), 'exportAlreadyRunning');
    expect((error.details as { export: { id: string; status: string } }).export).to.include({ id: first.id, status: 'queued' });
    exports.seed({ ...exports.get(first.id)!, status: 'generating' });
    await expectAppErrorAsync(request.execute(anActor().build(), {}), 'exportAlreadyRunning');
    expect(exports.rows.size).to.equal(1);
    expect(trigger.pokes).to.equal(1);
  });

  it("is not held back by another organization's export", async () => {
    const { request, exports } = aDataExportWorld();
    exports.seed(anExport({ organizationId: 2, status: 'generating', createdAt: new Date('2026-06-01T11:00:00Z') }));
    const queued = await request.execute(anActor().build(), {});
    expect(queued.status).to.equal('queued');
  });

  it('keeps the cooldown after the last export that did not fail, and lets a failed one be tried again at once', async () => {
    const { request, exports, clock } = aDataExportWorld();
    exports.seed(anExport({ status: 'ready', createdAt: new Date(clock.now().getTime() - 2 * HOUR) }));
    await expectAppErrorAsync(request.execute(anActor().build(), {}), 'exportCooldown', { cooldownHours: 6, retryAfter: 4 * 3600 });
    clock.advance(4 * HOUR);
    expect((await request.execute(anActor().build(), {})).status).to.equal('queued');

    const other = aDataExportWorld();
    other.exports.seed(anExport({ status: 'failed', createdAt: new Date(other.clock.now().getTime() - 60_000) }));
    expect((await other.request.execute(anActor().build(), {})).status).to.equal('queued');
  });

  it('answers exportAlreadyRunning with the winner when a racing request queued one between the check and the insert', async () => {
    const { request, exports, trigger } = aDataExportWorld();
    const winner = anExport({ id: '11111111-1111-4111-8111-111111111111', status: 'queued', createdAt: new Date('2026-06-01T11:59:59Z') });
    exports.loseNextAdd = winner;
    const error = await expectAppErrorAsync(request.execute(anActor().build(), {}), 'exportAlreadyRunning');
    expect((error.details as { export: { id: string } }).export.id).to.equal(winner.id);
    expect(exports.rows.size).to.equal(1);
    expect(trigger.pokes).to.equal(0);
  });
});

describe('Data export: listing and reading one (use case)', () => {
  it("lists the organization's exports newest first, at most 20, none of another organization's", async () => {
    const { list, exports } = aDataExportWorld();
    for (let i = 0; i < 22; i += 1) {
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      exports.seed(anExport({ id, status: 'expired', createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }));
    }
    exports.seed(anExport({ id: '99999999-0000-4000-8000-000000000000', organizationId: 2, createdAt: new Date('2026-05-31T00:00:00Z') }));
    const listed = await list.execute(anActor().build());
    expect(listed).to.have.length(20);
    expect(listed[0]!.id).to.equal('00000000-0000-4000-8000-000000000021');
    expect(listed.every((e) => e.organizationId === ORG)).to.equal(true);
    expect(await codeOf(list.execute(anActor().withRole('editor').build()))).to.equal('roleForbidden');
  });

  it("answers missingExportId without an id, and notFound for a malformed id or another organization's export", async () => {
    const { list, exports } = aDataExportWorld();
    const mine = exports.seed(anExport());
    const theirs = exports.seed(anExport({ id: '22222222-2222-4222-8222-222222222222', organizationId: 2 }));
    expect((await list.one(anActor().build(), mine.id)).id).to.equal(mine.id);
    expect((await list.one(anActor().build(), mine.id.toUpperCase())).id, 'an upper-case uuid is a uuid').to.equal(mine.id);
    for (const id of [undefined, '', '   ']) expect(await codeOf(list.one(anActor().build(), id)), String(id)).to.equal('missingExportId');
    await expectAppErrorAsync(list.one(anActor().build(), 'not-a-uuid'), 'notFound', { resource: 'dataExport' });
    await expectAppErrorAsync(list.one(anActor().build(), theirs.id), 'notFound', { resource: 'dataExport' });
    expect((await list.one(anActor().inOrganization(2).build(), theirs.id)).id).to.equal(theirs.id);
    expect(await codeOf(list.one(anActor().withRole('editor').build(), mine.id))).to.equal('roleForbidden');
  });
});
