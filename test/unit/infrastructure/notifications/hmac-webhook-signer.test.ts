import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { HmacWebhookSigner } from '../../../../src/infrastructure/notifications/hmac-webhook-signer';

describe('webhook signatures (HmacWebhookSigner)', () => {
  const signer = new HmacWebhookSigner();
  const body = JSON.stringify({ event: 'incident.opened', incidentId: 7 });
  const at = new Date('2026-12-01T10:00:00.900Z');

  it('signs "<unix seconds>.<body>" with HMAC-SHA256 and carries the delivery id', () => {
    const headers = signer.sign('whsec_test', body, at, 'delivery-1');
    const t = String(Date.parse('2026-12-01T10:00:00Z') / 1000);
    const expected = createHmac('sha256', 'whsec_test').update(`${t}.${body}`).digest('hex');
    expect(headers).to.deep.equal({
      'X-Webhook-Id': 'delivery-1',
      'X-Webhook-Timestamp': t,
      'X-Webhook-Signature': `t=${t},v1=${expected}`,
    });
  });

  it('binds the signature to the secret, the body and the timestamp', () => {
    const base = signer.sign('whsec_test', body, at, 'd')['X-Webhook-Signature'];
    expect(signer.sign('whsec_other', body, at, 'd')['X-Webhook-Signature']).not.to.equal(base);
    expect(signer.sign('whsec_test', `${body} `, at, 'd')['X-Webhook-Signature']).not.to.equal(base);
    expect(signer.sign('whsec_test', body, new Date(at.getTime() + 1000), 'd')['X-Webhook-Signature']).not.to.equal(base);
  });
});
