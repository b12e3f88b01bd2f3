import { aDataExportWorld } from '../../../support/builders/data-export';
import { expect } from 'chai';
import type { DataExport } from '../../../../src/domain/data-export/data-export';
import { anActor } from '../../../support/builders';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { plainSecrets } from '../../../support/fakes/identity-fakes';

const ORG = 1;
const ID = '5f1c3a52-54ab-4f2e-9d1e-1b2c3d4e5f60';
const TOKEN = 'wsx_link-secret';
const PATH = `/data/exports/${ID}.zip`;

const anExport = (over: Partial<DataExport> = {}): DataExport => ({
  id: ID,
  organizationId: ORG,
  requestedBy: 'admin-1',
  recipientEmails: ['Ops@Agency.example'],
  status: 'ready',
  rowsDone: 10,
  rowsTotal: 10,
  attempts: 1,
  fileBytes: 4096,
  error: null,
  createdAt: new Date('2026-05-30T08:00:00Z'),
  startedAt: new Date('2026-05-30T08:00:01Z'),
  finishedAt: new Date('2026-05-30T08:05:00Z'),
  expiresAt: new Date('2026-06-06T08:05:00Z'),
  ...over,
});

/** An export of `anExport(over)` whose file is on disk at PATH, opened by the link token TOKEN. */
function aDownloadWorld(over: Partial<DataExport> = {}) {
  const world = aDataExportWorld();
  world.exports.seed(anExport(over), { path: PATH, downloadTokenHash: plainSecrets.hash(TOKEN) });
  world.files.existing.add(PATH);
  return world;
}

/** A member who is not an administrator (a fresh builder each time: builders change in place). */
const member = () => anActor().withRole('readonly').withUser('user-2');
const expected = { path: PATH, filename: 'export-2026-05-30-5f1c3a52.zip', bytes: 4096 };

describe('Data export: downloading the archive (use case)', () => {
  it('streams a ready archive to an administrator of its organization, named after its day and id', async () => {
    const { download } = aDownloadWorld();
    expect(await download.byCaller(anActor().build(), ID)).to.deep.equal(expected);
  });

  it("hides another organization's export and refuses non-administrators", async () => {
    const { download } = aDownloadWorld();
    await expectAppErrorAsync(download.byCaller(anActor().inOrganization(2).build(), ID), 'notFound', { resource: 'dataExport' });
    expect(await codeOf(download.byCaller(anActor().withRole('editor').build(), ID))).to.equal('roleForbidden');
    expect(await codeOf(download.byCaller(anActor().forCustomer(3).build(), ID))).to.equal('roleForbidden');
    expect(await codeOf(download.byCaller(anActor().build(), undefined))).to.equal('missingExportId');
  });

  it('answers exportNotReady with the status before it is ready and after it failed', async () => {
    for (const status of ['queued', 'generating', 'failed'] as const) {
      const { download } = aDownloadWorld({ status, expiresAt: null });
      await expectAppErrorAsync(download.byCaller(anActor().build(), ID), 'exportNotReady', { status });
    }
  });

  it('answers exportExpired once the seven days passed, when it is marked expired, and when the file is gone', async () => {
    const { download, clock } = aDownloadWorld();
    clock.set('2026-06-06T08:04:59Z');
    expect(await download.byCaller(anActor().build(), ID)).to.deep.equal(expected);
    clock.set('2026-06-06T08:05:00Z');
    expect(await codeOf(download.byCaller(anActor().build(), ID))).to.equal('exportExpired');
    expect(await codeOf(aDownloadWorld({ status: 'expired' }).download.byCaller(anActor().build(), ID))).to.equal('exportExpired');
    const gone = aDownloadWorld();
    gone.files.existing.clear();
    expect(await codeOf(gone.download.byCaller(anActor().build(), ID))).to.equal('exportExpired');
  });

  it("opens through the e-mailed link for a signed-in recipient with the link's token (address compared without case)", async () => {
    const { download } = aDownloadWorld();
    expect(await download.byLink(member().build(), 'ops@agency.example', ID, TOKEN)).to.deep.equal(expected);
    expect(await download.byLink(member().build(), 'ops@agency.example', ID.toUpperCase(), TOKEN)).to.deep.equal(expected);
  });

  it('lets an administrator follow the link without its token, as from the list', async () => {
    const { download } = aDownloadWorld();
    expect(await download.byLink(anActor().build(), 'admin@agency.example', ID, undefined)).to.deep.equal(expected);
    await expectAppErrorAsync(download.byLink(anActor().inOrganization(2).build(), 'a@b.example', ID, TOKEN), 'notFound');
  });

  it('opens nothing for a link alone: a wrong or missing token, another member, another organization or a customer user is notFound', async () => {
    const { download } = aDownloadWorld();
    const refused = [
      () => download.byLink(member().build(), 'ops@agency.example', ID, 'wsx_guess'),
      () => download.byLink(member().build(), 'ops@agency.example', ID, undefined),
      () => download.byLink(member().build(), 'someone-else@agency.example', ID, TOKEN),
      () => download.byLink(member().inOrganization(2).build(), 'ops@agency.example', ID, TOKEN),
      () => download.byLink(anActor().withRole('readonly').forCustomer(3).build(), 'ops@agency.example', ID, TOKEN),
      () => download.byLink(member().build(), 'ops@agency.example', 'not-a-uuid', TOKEN),
    ];
    for (const [i, attempt] of refused.entries()) expect(await codeOf(attempt()), `attempt ${i}`).to.equal('notFound');
    expect(await codeOf(download.byLink(member().build(), 'ops@agency.example', ' ', TOKEN))).to.equal('missingExportId');
    expect(await codeOf(download.byLink(member().build(), 'ops@agency.example', undefined, TOKEN))).to.equal('missingExportId');
  });

  it('keeps the download rules for a recipient: exportExpired after the window', async () => {
    const { download, clock } = aDownloadWorld();
    clock.set('2026-06-07T00:00:00Z');
    expect(await codeOf(download.byLink(member().build(), 'ops@agency.example', ID, TOKEN))).to.equal('exportExpired');
  });
});
