import { expect } from 'chai';
import { GetScreenshot } from '../../../../src/application/checks/get-screenshot';
import type { Screenshot } from '../../../../src/application/checks/ports';
import { FakeMonitorLookup, aMonitorRef } from '../../../support/fakes/results-fakes';
import { FakeScreenshots } from '../../../support/fakes/checks-fakes';
import { anActor } from '../../../support/builders';
import { codeOf } from '../../../support/expect-app-error';

const SHOT_ID = '0b5b9a5e-7d1f-4d7a-9a59-3a8f0f0f0f01';

const actor = (organizationId = 1, customerId: number | null = null) => {
  const builder = anActor().inOrganization(organizationId);
  return (customerId === null ? builder : builder.forCustomer(customerId)).build();
};

describe('GetScreenshot', () => {
  const shot: Screenshot = {
    id: SHOT_ID,
    monitorId: 7,
    organizationId: 1,
    takenAt: new Date('2026-11-22T10:00:00Z'),
    png: new Uint8Array([0x89, 0x50]),
  };
  const useCase = new GetScreenshot(
    new FakeMonitorLookup(aMonitorRef({ monitorId: 7, organizationId: 1, customerId: 2 })),
    new FakeScreenshots([shot]),
  );

  it("answers the website's screenshot by id, in any letter case", async () => {
    expect(await useCase.execute(actor(), { websiteId: '7', screenshotId: SHOT_ID.toUpperCase() })).to.equal(shot);
    expect(await useCase.execute(actor(1, 2), { websiteId: '7', screenshotId: SHOT_ID })).to.equal(shot);
  });

  it('judges the id first (invalidScreenshotId), then the website (websiteNotFound), then the screenshot (screenshotNotFound)', async () => {
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', screenshotId: 'nope' }))).to.equal('invalidScreenshotId');
    expect(await codeOf(useCase.execute(actor(99), { websiteId: '7', screenshotId: SHOT_ID }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(1, 5), { websiteId: '7', screenshotId: SHOT_ID }))).to.equal('websiteNotFound');
    expect(await codeOf(useCase.execute(actor(), { websiteId: '7', screenshotId: SHOT_ID.replace('01', '02') }))).to.equal(
      'screenshotNotFound',
    );
  });

  it("never answers another website's screenshot", async () => {
    const other = new GetScreenshot(
      new FakeMonitorLookup(aMonitorRef({ monitorId: 8, organizationId: 1, customerId: 2 })),
      new FakeScreenshots([shot]),
    );
    expect(await codeOf(other.execute(actor(), { websiteId: '8', screenshotId: SHOT_ID }))).to.equal('screenshotNotFound');
  });
});
