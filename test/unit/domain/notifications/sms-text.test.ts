import { expect } from 'chai';
import { fitSms, smsSeptets, SMS_SEPTETS } from '../../../../src/domain/notifications/sms-text';
import { smsContent, type NotificationMessage } from '../../../../src/domain/notifications/notification-message';

describe('SMS text (one GSM-7 segment)', () => {
  it('keeps a short GSM-7 text as it is', () => {
    expect(fitSms('Incident opened: shop.example.com is down (Zürich, 503)')).to.equal(
      'Incident opened: shop.example.com is down (Zürich, 503)',
    );
  });

  it('keeps a text of exactly 160 septets whole', () => {
    const text = 'a'.repeat(SMS_SEPTETS);
    expect(fitSms(text)).to.equal(text);
  });

  it('cuts a longer text to 160 septets, ending with "..."', () => {
    const fitted = fitSms(`${'word '.repeat(40)}end`);
    expect(smsSeptets(fitted)).to.be.at.most(SMS_SEPTETS);
    expect(fitted).to.match(/^word word .*\.\.\.$/);
    expect(fitted).not.to.include('end');
  });

  it('counts extension characters ({ } [ ] € ...) as two septets', () => {
    const text = '{'.repeat(80);
    expect(smsSeptets(text)).to.equal(160);
    expect(fitSms(text)).to.equal(text);
    const over = fitSms(`${'{'.repeat(80)}x`);
    expect(over).to.equal(`${'{'.repeat(78)}...`);
    expect(smsSeptets(over)).to.equal(159);
  });

  it('replaces characters outside the GSM alphabet by a look-alike or "?" (no switch to 70-character UCS-2)', () => {
    expect(fitSms('It’s down — “shop” … 🔥 日本')).to.equal('It\'s down - "shop" ... ? ??');
  });

  it('an alert reads "<title>: <summary>"', () => {
    const message: NotificationMessage = {
      id: 'd-1',
      event: 'incident.resolved',
      occurredAt: '2026-11-23T10:00:00.000Z',
      summary: 'shop.example.com is up',
      incidentId: 'inc-1',
      monitorId: 1,
      customerId: 1,
      data: {},
    };
    expect(smsContent(message)).to.equal('Incident resolved: shop.example.com is up');
    expect(smsSeptets(smsContent({ ...message, summary: 'x'.repeat(400) }))).to.equal(SMS_SEPTETS);
  });
});
