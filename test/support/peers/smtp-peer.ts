import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Pem } from './certificates';

/** smtp-server on loopback with STARTTLS (the given certificate) and AUTH PLAIN/LOGIN for user/secret. */
export class SmtpPeer {
  private server: SMTPServer;
  /** The messages accepted, raw (headers and body), with their envelope recipients and the id of the connection (session) that carried them. */
  readonly messages: Array<{ to: string[]; raw: string; connection: string }> = [];
  /** While true, each message's DATA is answered only at `release` (a slow server). */
  holding = false;
  /** Messages whose DATA waits for `release`. */
  held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(cert: Pem, options: { starttls?: boolean; banner?: string } = {}) {
    this.server = new SMTPServer({
      secure: false,
      key: cert.key,
      cert: cert.cert,
      banner: options.banner ?? 'Test SMTP ready',
      disabledCommands: options.starttls === false ? ['STARTTLS'] : [],
      authOptional: true,
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) =>
        auth.username === 'user' && auth.password === 'secret'
          ? callback(null, { user: 'user' })
          : callback(new Error('Invalid username or password')),
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.messages.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            connection: session.id,
          });
          if (!this.holding) return callback();
          this.held++;
          this.waiting.push(() => {
            this.held--;
            callback();
          });
        });
      },
    });
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** Answers every held message, and those arriving later. */
  release(): void {
    this.holding = false;
    for (const answer of this.waiting.splice(0)) answer();
  }

  stop(): Promise<void> {
    this.release();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
