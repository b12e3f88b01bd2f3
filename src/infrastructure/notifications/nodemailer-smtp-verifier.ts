import { lazyModule } from '../protocols/shared/lazy-module';
import type { SmtpProbe, SmtpVerifier } from '../../application/notifications/ports';

/** nodemailer, loaded with the first verification or message (a service that sends no mail never holds it). */
export const loadNodemailer = lazyModule(() => import('nodemailer'));

const TIMEOUT_MS = 10_000;

/**
 * nodemailer's transporter.verify(): connect to the address the target policy vetted (never a
 * fresh DNS answer), greet, TLS as configured with the certificate checked against the name the
 * user gave, and log in when credentials are set. Nothing is sent.
 */
export class NodemailerSmtpVerifier implements SmtpVerifier {
  constructor(private readonly heloName: string) {}

  async verify(probe: SmtpProbe): Promise<{ ok: true } | { ok: false; reason: string }> {
    const { default: nodemailer } = await loadNodemailer();
    const transporter = nodemailer.createTransport({
      host: probe.address,
      port: probe.port,
      name: this.heloName,
      secure: probe.security === 'tls',
      requireTLS: probe.security === 'starttls',
      ignoreTLS: probe.security === 'none',
      tls: { servername: probe.hostname },
      auth: probe.username === null ? undefined : { user: probe.username, pass: probe.password ?? '' },
      connectionTimeout: TIMEOUT_MS,
      greetingTimeout: TIMEOUT_MS,
      socketTimeout: TIMEOUT_MS,
    });
    try {
      await transporter.verify();
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: reasonOf(error as { code?: string; message?: string }) };
    } finally {
      transporter.close();
    }
  }
}

/** A stable reason from nodemailer's error codes, for data.reason. */
function reasonOf(error: { code?: string; message?: string }): string {
  switch (error.code) {
    case 'EAUTH':
      return 'authenticationFailed';
    case 'ETLS':
      return 'tlsFailed';
    case 'ECONNECTION':
    case 'ESOCKET':
      return /certificate|self[- ]signed|TLS|SSL/i.test(error.message ?? '') ? 'tlsFailed' : 'connectionFailed';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'EPROTOCOL':
    case 'EENVELOPE':
      return 'protocolError';
    default:
      return 'connectionFailed';
  }
}
