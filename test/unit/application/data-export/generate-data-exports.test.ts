import { expect } from 'chai';
import { aDataExportWorld, exportIdOf } from '../../../support/builders/data-export';
import { DownloadDataExport } from '../../../../src/application/data-export/download-data-export';
import { anActor } from '../../../support/builders';
import { ManualClock } from '../../../support/manual-clock';
import { plainSecrets } from '../../../support/fakes/identity-fakes';

const ORG = 1;
const DAY = 86_400_000;

const idOf = exportIdOf;

describe('Data export: the worker (use case)', () => {
  it('generates a queued export: ready with its size, downloadable for seven days, rows done = rows total', async () => {
    const { worker, exports, queue, clock } = aDataExportWorld();
    queue(1);
    const progress: Array<[number, number]> = [];
    const round = await worker.execute('worker-a', (_e, done, total) => progress.push([done, total]));
    expect(round).to.deep.equal({ released: [], generated: [idOf(1)], failed: [], expired: 0 });
    expect(progress).to.deep.equal([
      [10, 30],
      [20, 30],
      [30, 30],
    ]);
    const ready = exports.get(idOf(1))!;
    expect(ready).to.deep.include({ status: 'ready', attempts: 1, rowsDone: 30, rowsTotal: 30, fileBytes: 3000 });
    expect(ready.startedAt?.toISOString()).to.equal(clock.now().toISOString());
    expect(ready.expiresAt!.getTime() - ready.finishedAt!.getTime()).to.equal(7 * DAY);
  });

  it('mails each recipient one link whose token opens the archive for them (and only its digest is stored)', async () => {
    const { worker, exports, files, mail, queue } = aDataExportWorld();
    queue(1);
    await worker.execute('worker-a');
    expect(mail.rows.map((r) => r.message.recipient)).to.deep.equal([
      { type: 'email', address: 'Ada@Agency.example' },
      { type: 'email', address: 'ops@agency.example' },
    ]);
    const message = mail.rows[0]!.message;
    expect(message).to.deep.include({ event: 'dataExport.ready', organizationId: ORG, customerId: null });
    expect(message.dedupKey).to.equal(`data-export:${idOf(1)}:ada@agency.example`);
    const link = new URL(/https:\S+/.exec(message.text)![0]);
    expect(link.origin + link.pathname).to.equal('https://app.example/api/organization/data-export/download');
    expect(link.searchParams.get('exportId')).to.equal(idOf(1));
    const token = link.searchParams.get('token')!;
    expect(token).to.match(/^wsx_/);
    expect(mail.rows[1]!.message.text, 'one token for all recipients').to.include(`token=${token}`);
    expect((await exports.fileOf(idOf(1)))!.downloadTokenHash).to.equal(plainSecrets.hash(token));
    const download = new DownloadDataExport(exports, files, plainSecrets, new ManualClock('2026-06-02T00:00:00Z'));
    const opened = await download.byLink(anActor().withRole('readonly').withUser('u2').build(), 'ada@agency.example', idOf(1), token);
    expect(opened.path).to.equal(files.pathFor(idOf(1)));
  });

  it('generates queued exports oldest first, each under its own lease', async () => {
    const { worker, queue, writer } = aDataExportWorld();
    queue(2);
    queue(1, { organizationId: 2, createdAt: new Date('2026-06-01T11:00:00Z') });
    const round = await worker.execute('worker-a');
    expect(round.generated).to.deep.equal([idOf(1), idOf(2)]);
    expect(writer.written.map((w) => w.organizationId)).to.deep.equal([2, ORG]);
  });

  it('fails an export whose archive could not be written: the error is kept, the half-written file removed, nobody mailed', async () => {
    const { worker, exports, files, mail, queue, writer } = aDataExportWorld();
    queue(1);
    writer.failWith = 'disk full';
    const round = await worker.execute('worker-a');
    expect(round).to.deep.include({ generated: [], failed: [{ id: idOf(1), error: 'disk full' }] });
    expect(exports.get(idOf(1))).to.deep.include({ status: 'failed', error: 'disk full' });
    expect(files.existing.has(files.pathFor(idOf(1)))).to.equal(false);
    expect(files.removed).to.include(files.pathFor(idOf(1)));
    expect(mail.rows).to.have.length(0);
  });

  it('lets go of an export another worker took over: neither ready nor failed by this one, and no mail', async () => {
    const { worker, exports, mail, queue, writer } = aDataExportWorld();
    queue(1);
    writer.midway = () => exports.steal(idOf(1), 'worker-b');
    const round = await worker.execute('worker-a');
    expect(round).to.deep.include({ generated: [], failed: [] });
    expect(exports.get(idOf(1))!.status).to.equal('generating');
    expect(mail.rows).to.have.length(0);
  });

  it('queues again an export whose worker stopped while tries remain, and generates it in the same round', async () => {
    const { worker, exports, queue, clock } = aDataExportWorld();
    queue(1, { status: 'generating', attempts: 1 });
    exports.seed(exports.get(idOf(1))!, null, { owner: 'dead-worker', until: new Date(clock.now().getTime() - 1) });
    const round = await worker.execute('worker-a');
    expect(round.released).to.deep.equal([{ id: idOf(1), status: 'queued' }]);
    expect(round.generated).to.deep.equal([idOf(1)]);
    expect(exports.get(idOf(1))).to.deep.include({ status: 'ready', attempts: 2 });
  });

  it('fails an export whose worker stopped on its third try and deletes its half-written archive; a live lease is left alone', async () => {
    const { worker, exports, files, queue, clock } = aDataExportWorld();
    queue(1, { status: 'generating', attempts: 3 });
    exports.seed(exports.get(idOf(1))!, null, { owner: 'dead-worker', until: new Date(clock.now().getTime() - 1) });
    files.existing.add(files.pathFor(idOf(1)));
    queue(2, { status: 'generating', attempts: 1, organizationId: 2 });
    exports.seed(exports.get(idOf(2))!, null, { owner: 'live-worker', until: new Date(clock.now().getTime() + 30_000) });
    const round = await worker.execute('worker-a');
    expect(round.released).to.deep.equal([{ id: idOf(1), status: 'failed' }]);
    expect(exports.get(idOf(1))!.status).to.equal('failed');
    expect(files.existing.has(files.pathFor(idOf(1)))).to.equal(false);
    expect(exports.get(idOf(2))!.status).to.equal('generating');
  });

  it('expires archives past their seven days and deletes their files', async () => {
    const { worker, exports, files, queue, clock } = aDataExportWorld();
    queue(1);
    await worker.execute('worker-a');
    expect(files.existing.has(files.pathFor(idOf(1)))).to.equal(true);
    clock.advance(7 * DAY - 1000);
    expect((await worker.execute('worker-a')).expired).to.equal(0);
    clock.advance(1000);
    expect((await worker.execute('worker-a')).expired).to.equal(1);
    expect(exports.get(idOf(1))!.status).to.equal('expired');
    expect(files.existing.has(files.pathFor(idOf(1)))).to.equal(false);
  });
});
