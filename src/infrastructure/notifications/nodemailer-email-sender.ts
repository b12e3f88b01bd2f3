import type { SendMailOptions } from 'nodemailer';
import { performance } from 'node:perf_hooks';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import { emailContent, type NotificationMessage } from '../../domain/notifications/notification-message';
import type { SmtpSecurity } from '../../domain/notifications/organization-smtp';
import type {
  ClaimedDirectDelivery,
  DirectSender,
  NotificationSender,
  OrganizationSmtpStore,
  SendOutcome,
} from '../../application/notifications/ports';
import { smtpPasswordContext } from '../../application/notifications/update-organization-smtp';
import type { CredentialCipher } from '../../application/monitoring/ports';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { vetTarget } from '../protocols/shared/pinned-connection';
import type { SmtpTransportPool } from './smtp-transport-pool';
import { CheckDeadline } from '../../application/checks/check-deadline';
import { TurnNotFree } from '../protocols/shared/slots';

/** An SMTP server to send through. */
export interface SmtpServer {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
  fromAddress: string;
}

/**
 * The platform's server from SMTP_URL: smtp://user:pass@host:port (STARTTLS when offered, port 587
 * by default) or smtps:// (TLS from the first byte, 465); `from` is the sender address.
 */
export function platformSmtp(smtpUrl: string | undefined, from: string): SmtpServer | null {
  if (!smtpUrl) return null;
  const url = new URL(smtpUrl);
  const tls = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: Number(url.port) || (tls ? 465 : 587),
    security: tls ? 'tls' : 'starttls',
    username: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    fromAddress: from,
  };
}

export const TIMEOUT_MS = 15_000;
/** A message's send from when it has one of the server's pooled connections: it gives up (and is retried) after this. */
export const SEND_LIMIT_MS = 3 * TIMEOUT_MS;
/**
 * How long a message may wait for one of the server's connections (a round sends all it claimed at
 * once, and many organizations' e-mail may share the platform's server): past it, it was never
 * sent, and is retried as the service's own delay, not the channel's failure.
 */
export const TURN_LIMIT_MS = 60_000;
const outcome = (verdict: SendOutcome['verdict'], started: number, fields: Partial<SendOutcome>): SendOutcome => ({
  verdict,
  statusCode: null,
  responseExcerpt: null,
  retryAfterMs: null,
  error: null,
  latencyMs: performance.now() - started,
  ...fields,
});

/**
 * E-mail deliveries through nodemailer: the organization's SMTP server when it set one, else the
 * platform's (SMTP_URL), dialled at the address the target policy vetted for this send (a pooled
 * transport per server, address and login), TLS checked against the server's name; direct messages (to one address, with HTML, headers, attachments) go the same way. `starttls` here means "when offered" for the platform's plain smtp:// URL.
 */
export class NodemailerEmailSender implements NotificationSender, DirectSender {
  constructor(
    private readonly policy: TargetPolicy,
    private readonly store: OrganizationSmtpStore,
    private readonly cipher: CredentialCipher,
    private readonly platform: SmtpServer | null,
    private readonly transports: SmtpTransportPool,
    /** How long a message may wait for one of its server's connections (TURN_LIMIT_MS). */
    private readonly turnMs: number = TURN_LIMIT_MS,
  ) {}

  async send(channel: NotificationChannel, message: NotificationMessage): Promise<SendOutcome> {
    const { subject, text } = emailContent(message);
    return this.mail(channel.organizationId, {
      to: [...(channel.config.recipients ?? [])],
      subject,
      text,
      headers: { 'X-Notification-Id': message.id },
    });
  }

  /** A message to one address (a subscriber, a report's reader), through the organization's server as channel mail is. */
  async sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    if (delivery.recipient.type !== 'email') return outcome('rejected', performance.now(), { error: 'Not an e-mail recipient' });
    const { subject, text, html, headers, attachments } = delivery.content;
    return this.mail(delivery.organizationId, {
      to: [delivery.recipient.address],
      subject,
      text,
      html,
      headers: { ...headers, 'X-Notification-Id': delivery.id },
      attachments: attachments?.map((a) => ({ filename: a.filename, path: a.path, contentType: a.contentType })),
    });
  }

  private async mail(organizationId: number, mail: Omit<SendMailOptions, 'from'>): Promise<SendOutcome> {
    // The server's latency: from the message's turn at one of its connections, not the queue before it.
    let started = performance.now();
    const server = await this.serverFor(organizationId);
    if (!server)
      return outcome('rejected', started, { error: "No SMTP server: set the organization's (PATCH /api/organization/smtp) or SMTP_URL" });
    let address: string;
    try {
      [address] = (await vetTarget(this.policy, server.host)) as [string];
    } catch (error) {
      return outcome('rejected', started, { error: (error as Error).message });
    }
    const { deadline: turn, clear } = CheckDeadline.within(this.turnMs);
    try {
      const info = await this.transports.send(
        { host: server.host, address, port: server.port, security: server.security, username: server.username, password: server.password },
        { ...mail, from: server.fromAddress },
        {
          turn,
          sendMs: SEND_LIMIT_MS,
          onTurn: () => {
            started = performance.now();
          },
        },
      );
      const code = Number(/^(\d{3})/.exec(info.response ?? '')?.[1] ?? 250);
      return outcome('delivered', started, { statusCode: code, responseExcerpt: (info.response ?? '').slice(0, 512) });
    } catch (error) {
      // Never sent: the wait was this service's queue, not a failure of the server's.
      if (error instanceof TurnNotFree) return outcome('retry', performance.now(), { error: error.message, local: true });
      const failure = error as { responseCode?: number; response?: string; message?: string; code?: string };
      const code = failure.responseCode ?? null;
      // A file that cannot be read (an attachment gone) will not come back: no point in retrying.
      const gone = failure.code === 'ENOENT' || failure.code === 'EACCES';
      return outcome(gone || (code !== null && code >= 500) ? 'rejected' : 'retry', started, {
        statusCode: code,
        responseExcerpt: failure.response?.slice(0, 512) ?? null,
        error: failure.message ?? 'SMTP failure',
      });
    } finally {
      clear();
    }
  }

  private async serverFor(organizationId: number): Promise<SmtpServer | null> {
    const own = await this.store.get(organizationId);
    if (!own) return this.platform;
    return {
      host: own.host,
      port: own.port,
      security: own.security,
      username: own.username,
      fromAddress: own.fromAddress,
      password: own.passwordCiphertext === null ? null : this.cipher.decrypt(own.passwordCiphertext, smtpPasswordContext(organizationId)),
    };
  }
}
