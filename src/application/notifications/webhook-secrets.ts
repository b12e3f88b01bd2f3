import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { SecretTokens } from '../identity/ports';
import type { CredentialCipher } from '../monitoring/ports';

/** Opened secrets kept in memory (oldest forgotten first). */
const OPENED_KEPT = 1_000;

/** The sealing context of a channel's secret: a ciphertext copied onto another channel does not open. */
export const webhookSecretContext = (channel: { publicId: string }) => `notification-channel:${channel.publicId}:secret`;

/**
 * Webhook signing secrets: a new random `whsec_` secret per webhook channel, sealed onto the channel
 * with the credential cipher (the deliverer opens it to sign) and answered once in the clear.
 */
export class WebhookSecrets {
  /** Secrets opened lately, by sealed value and context (a new secret is a new sealed value): a storm signs many messages per channel. */
  private readonly opened = new Map<string, string>();

  constructor(
    private readonly tokens: SecretTokens,
    private readonly cipher: CredentialCipher,
    private readonly keep = OPENED_KEPT,
  ) {}

  issue(channel: NotificationChannel): string {
    const secret = this.tokens.generate('whsec_');
    channel.secretCiphertext = this.cipher.encrypt(secret, webhookSecretContext(channel));
    return secret;
  }

  /** The secret of a webhook channel, for signing; null for other types. */
  open(channel: NotificationChannel): string | null {
    if (channel.secretCiphertext === null) return null;
    const context = webhookSecretContext(channel);
    const key = `${context}\u0000${channel.secretCiphertext}`;
    const known = this.opened.get(key);
    if (known !== undefined) return known;
    const secret = this.cipher.decrypt(channel.secretCiphertext, context);
    if (this.opened.size >= this.keep) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(key, secret);
    return secret;
  }
}
