import { expect } from 'chai';
import { api } from '../../../support/http-client';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';

/**
 * Creating a repeating window looks for its first occurrence with no end in sight: in a zone ahead of
 * UTC the search's far end once became an invalid date and the create answered 500.
 */
describe('Maintenance windows API: creating a repeating window', () => {
  for (const timezone of ['Europe/Berlin', 'UTC', 'America/New_York']) {
    it(`creates a weekly window in ${timezone} and answers its next occurrence`, async () => {
      const org = await anOrganization('maintenance');
      const monitor = await aMonitorRow(org.user.organizationId, await aCustomerRow(org.user.organizationId));
      const created = await api('POST', '/api/maintenance-windows', {
        token: org.token,
        body: {
          title: 'Weekly patching',
          startTime: '2027-03-21T02:00:00Z',
          endTime: '2027-03-21T04:00:00Z',
          timezone,
          rrule: 'FREQ=WEEKLY',
          targets: [{ type: 'website', id: monitor.publicId }],
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.include({ rrule: 'FREQ=WEEKLY', timezone, status: 'scheduled' });
      expect(created.body.nextOccurrence).to.deep.equal({ startTime: '2027-03-21T02:00:00.000Z', endTime: '2027-03-21T04:00:00.000Z' });
      const read = await api('GET', `/api/maintenance-windows/${created.body.id}`, { token: org.token });
      expect(read.body.nextOccurrence).to.deep.equal(created.body.nextOccurrence);
    });
  }
});
