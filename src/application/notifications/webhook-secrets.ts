import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { SecretTokens } from '../identity/ports';
import type { CredentialCipher } from '../monitoring/ports';

/** The sealing context of a channel's secret: a ciphertext copied onto another channel does not open. */
export const webhookSecretContext = (channel: { publicId: string }) => `notification-channel:${channel.publicId}:secret`;

/**
 * Webhook signing secrets: a new random `whsec_` secret per webhook channel, sealed onto the channel
 * with the credential cipher (the deliverer opens it to sign) and answered once in the clear.
 */
export class WebhookSecrets {
  constructor(private readonly tokens: SecretTokens, private readonly cipher: CredentialCipher) {}

  issue(channel: NotificationChannel): string {
    const secret = this.tokens.generate('whsec_');
    channel.secretCiphertext = this.cipher.encrypt(secret, webhookSecretContext(channel));
    return secret;
  }

  /** The secret of a webhook channel, for signing; null for other types. */
  open(channel: NotificationChannel): string | null {
    return channel.secretCiphertext === null ? null : this.cipher.decrypt(channel.secretCiphertext, webhookSecretContext(channel));
  }
}
