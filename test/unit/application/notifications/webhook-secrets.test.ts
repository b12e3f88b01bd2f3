import { expect } from 'chai';
import { WebhookSecrets } from '../../../../src/application/notifications/webhook-secrets';
import { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import type { CredentialCipher } from '../../../../src/application/monitoring/ports';
import { fakeCipher } from '../../../support/fakes/monitoring-fakes';
import { plainSecrets } from '../../../support/fakes/identity-fakes';

/** The fake cipher, counting what it opens. */
function countingCipher() {
  const cipher = {
    opened: 0,
    encrypt: fakeCipher.encrypt,
    decrypt: (sealed: string, context: string) => {
      cipher.opened++;
      return fakeCipher.decrypt(sealed, context);
    },
  };
  return cipher satisfies CredentialCipher & { opened: number };
}

const aWebhook = (publicId: string) =>
  new NotificationChannel({
    publicId,
    organizationId: 1,
    scope: { customerId: null, monitorId: null, sourceChannelId: null },
    name: 'hook',
    type: 'webhook',
    config: { url: 'https://hooks.example.com/a' },
    now: new Date('2026-12-01T10:00:00Z'),
  });

describe('webhook secrets: opened once while they stay the same', () => {
  it("opens a channel's secret once for many messages, and a new secret (a new sealed value) anew", () => {
    const cipher = countingCipher();
    const secrets = new WebhookSecrets(plainSecrets, cipher);
    const channel = aWebhook('00000000-0000-4000-8000-000000000001');
    const first = secrets.issue(channel);
    expect([secrets.open(channel), secrets.open(channel), secrets.open(channel)]).to.deep.equal([first, first, first]);
    expect(cipher.opened).to.equal(1);
    const rotated = secrets.issue(channel);
    expect(secrets.open(channel)).to.equal(rotated);
    expect(cipher.opened).to.equal(2);
  });

  it('keeps a bounded number of opened secrets, the oldest forgotten first', () => {
    const cipher = countingCipher();
    const secrets = new WebhookSecrets(plainSecrets, cipher, 2);
    const [a, b, c] = ['1', '2', '3'].map((n) => aWebhook(`00000000-0000-4000-8000-00000000000${n}`));
    for (const channel of [a!, b!, c!]) secrets.issue(channel);
    for (const channel of [a!, b!, c!]) secrets.open(channel);
    secrets.open(c!);
    secrets.open(a!);
    expect(cipher.opened, 'c kept, a forgotten').to.equal(4);
  });

  it('answers null for a channel without a secret, opening nothing', () => {
    const cipher = countingCipher();
    const channel = aWebhook('00000000-0000-4000-8000-000000000009');
    expect(new WebhookSecrets(plainSecrets, cipher).open(channel)).to.equal(null);
    expect(cipher.opened).to.equal(0);
  });
});
