import { expect } from 'chai';
import { assertRecipientsFit, manualAlertMessage, testMessage } from '../../../../src/domain/notifications/manual-notifications';
import { chatPayload, emailContent, webhookPayload } from '../../../../src/domain/notifications/notification-message';
import { expectAppError } from '../../../support/expect-app-error';

const NOW = new Date('2026-12-01T10:00:00Z');
const channel = { publicId: 'c0ffee00-0000-4000-8000-000000000001', name: 'Ops', type: 'webhook', customerId: 10, monitorId: null };

describe('manual notifications (test messages and alerts sent by hand)', () => {
  it("a test message says it is a test, in words and in data, and concerns the channel's customer only", () => {
    const draft = testMessage(channel, NOW);
    expect(draft).to.deep.equal({
      event: 'test',
      occurredAt: '2026-12-01T10:00:00.000Z',
      summary: 'This is a test notification for the channel "Ops": no incident happened. If you can read this, the channel works.',
      incidentId: null,
      monitorId: null,
      customerId: 10,
      data: { test: true, channel: { id: channel.publicId, name: 'Ops', type: 'webhook' } },
    });
    const message = { ...draft, id: 'd1' };
    expect(emailContent(message).subject).to.equal(`Test notification: ${draft.summary}`);
    expect(chatPayload('slack', message, null).text).to.equal(`Test notification: ${draft.summary}`);
  });

  it('a manual alert carries its title as the summary, and its text and severity in data', () => {
    const draft = manualAlertMessage({ title: 'Power work', message: 'Short outages tonight.', severity: 'info', customerId: null }, NOW);
    expect(webhookPayload({ ...draft, id: 'd1' })).to.deep.equal({
      id: 'd1',
      event: 'alert.manual',
      occurredAt: '2026-12-01T10:00:00.000Z',
      summary: 'Power work',
      incident: null,
      monitor: null,
      customer: null,
      data: { title: 'Power work', message: 'Short outages tonight.', severity: 'info' },
    });
  });

  it("chat and e-mail headings and colours follow the alert's severity; its text follows the title", () => {
    const message = (severity: 'info' | 'warning' | 'critical', text: string | null = 'Details.') => ({
      ...manualAlertMessage({ title: 'Power work', message: text, severity, customerId: null }, NOW),
      id: 'd1',
    });
    expect(chatPayload('slack', message('critical'), '[prod]').text).to.equal('[prod] Critical alert: Power work');
    expect(chatPayload('discord', message('warning'), null)).to.deep.equal({
      content: 'Warning: Power work',
      embeds: [{ title: 'Warning', description: 'Power work\n\nDetails.', color: 0xf9ab00, timestamp: '2026-12-01T10:00:00.000Z' }],
    });
    expect(chatPayload('teams', message('info'), null)).to.include({ themeColor: '1a73e8', title: 'Notice' });
    expect(chatPayload('teams', message('critical'), null)).to.include({ themeColor: 'd93025' });
    const mail = emailContent(message('critical'));
    expect(mail.subject).to.equal('Critical alert: Power work');
    expect(mail.text).to.match(/^Critical alert\n\nPower work\n\nDetails\.\n\nEvent: alert\.manual\n/);
    expect(emailContent(message('critical', null)).text).to.match(/^Critical alert\n\nPower work\n\nEvent: alert\.manual\n/);
  });

  it("an alert about a customer may go to the organization's channels and that customer's, not another customer's", () => {
    const org = { publicId: 'org-channel', customerId: null };
    const own = { publicId: 'own-channel', customerId: 10 };
    const foreign = { publicId: 'foreign-channel', customerId: 11 };
    expect(() => assertRecipientsFit(10, [org, own])).not.to.throw();
    expect(() => assertRecipientsFit(null, [org, own, foreign])).not.to.throw();
    expectAppError(() => assertRecipientsFit(10, [org, foreign]), 'invalidRequestBody', {
      field: 'channelIds',
      reason: 'otherCustomer',
      channelId: 'foreign-channel',
    });
  });
});
