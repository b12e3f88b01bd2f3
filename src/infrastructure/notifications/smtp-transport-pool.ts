import { createHash } from 'node:crypto';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { loadNodemailer } from './nodemailer-smtp-verifier';
import type { SmtpSecurity } from '../../domain/notifications/organization-smtp';
import type { Deadline } from '../../application/checks/ports';
import { Slots } from '../protocols/shared/slots';

/** One SMTP server as a send reaches it: its name (TLS), the address the target policy vetted for this send (dialled), the login. */
export interface SmtpTarget {
  readonly host: string;
  readonly address: string;
  readonly port: number;
  readonly security: SmtpSecurity;
  readonly username: string | null;
  readonly password: string | null;
}

export interface SmtpTransportPoolSettings {
  /** Most servers whose pooled transports are kept; past it the least recently used idle one is closed. */
  readonly servers: number;
  /** Most connections open at once to one server; more messages wait their turn (SmtpSendBounds.turn). */
  readonly connectionsPerServer: number;
  /** A transport unused this long is closed (its connections with it). */
  readonly idleMs?: number;
  /** nodemailer's connection, greeting and socket timeouts. */
  readonly timeoutMs: number;
  /** The EHLO name. */
  readonly heloName: string;
}

interface Kept {
  readonly transporter: Transporter;
  /** One per connection: a message is handed to nodemailer only with one, so its queue stays empty and its time starts there. */
  readonly slots: Slots;
  lastUsedMs: number;
  sending: number;
}

/** How long a message may wait for one of its server's connections (`turn`), and then take to be sent (`sendMs`). */
export interface SmtpSendBounds {
  readonly turn: Deadline;
  readonly sendMs: number;
  /** Called when its turn comes, as the send begins. */
  readonly onTurn?: () => void;
}

const IDLE_MS = 60_000;

/**
 * nodemailer's pooled SMTP transports, one per server as configured (name, vetted address, port,
 * security and credentials: the key is a hash of them, so a changed password or a new address gets
 * a transport of its own and the old one closes once idle), at most `servers` of them, each with at
 * most `connectionsPerServer` connections. Transports unused for `idleMs` are closed; `close` closes
 * them all (on shutdown).
 */
export class SmtpTransportPool {
  private readonly transports = new Map<string, Kept>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly settings: SmtpTransportPoolSettings,
    private readonly nowMs: () => number = Date.now,
  ) {
    const idleMs = settings.idleMs ?? IDLE_MS;
    this.sweeper = setInterval(() => this.closeIdle(idleMs), Math.max(1_000, Math.floor(idleMs / 2)));
    this.sweeper.unref();
  }

  /** Servers with a transport kept now. */
  get size(): number {
    return this.transports.size;
  }

  /**
   * Sends through the server's pooled transport once one of its connections is free: a message
   * still waiting when `bounds.turn` passes is never sent and fails with TurnNotFree; one sent is
   * given up after `bounds.sendMs` from its turn (so a message late in a round is not timed out by
   * the queue ahead of it).
   */
  async send(target: SmtpTarget, mail: SendMailOptions, bounds: SmtpSendBounds): Promise<{ response?: string }> {
    const kept = this.transportFor(target, (await loadNodemailer()).default);
    kept.sending++;
    kept.lastUsedMs = this.nowMs();
    try {
      const release = await kept.slots.acquire(bounds.turn);
      bounds.onTurn?.();
      try {
        const signal = AbortSignal.timeout(bounds.sendMs);
        return (await kept.transporter.sendMail({ ...mail, signal } as SendMailOptions)) as { response?: string };
      } finally {
        release();
      }
    } finally {
      kept.sending--;
      kept.lastUsedMs = this.nowMs();
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const kept of this.transports.values()) kept.transporter.close();
    this.transports.clear();
  }

  /** Closes the transports unused for `idleMs` with nothing to send. */
  closeIdle(idleMs: number): void {
    const before = this.nowMs() - idleMs;
    for (const [key, kept] of this.transports) {
      if (kept.sending > 0 || kept.lastUsedMs > before) continue;
      kept.transporter.close();
      this.transports.delete(key);
    }
  }

  private transportFor(target: SmtpTarget, nodemailer: Awaited<ReturnType<typeof loadNodemailer>>['default']): Kept {
    if (this.closed) throw new Error('The SMTP transport pool is closed');
    const key = createHash('sha256')
      .update(
        JSON.stringify([
          target.host,
          target.address,
          target.port,
          target.security,
          target.username,
          target.password,
          this.settings.heloName,
        ]),
      )
      .digest('base64');
    const known = this.transports.get(key);
    if (known) {
      this.transports.delete(key);
      this.transports.set(key, known); // most recently used last
      return known;
    }
    if (this.transports.size >= this.settings.servers) this.closeLeastRecentlyUsed();
    const { timeoutMs } = this.settings;
    const transporter = nodemailer.createTransport({
      pool: true,
      maxConnections: this.settings.connectionsPerServer,
      host: target.address,
      port: target.port,
      name: this.settings.heloName,
      secure: target.security === 'tls',
      ignoreTLS: target.security === 'none',
      tls: { servername: target.host },
      auth: target.username === null ? undefined : { user: target.username, pass: target.password ?? '' },
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    const kept: Kept = { transporter, slots: new Slots(this.settings.connectionsPerServer), lastUsedMs: this.nowMs(), sending: 0 };
    this.transports.set(key, kept);
    return kept;
  }

  /** The least recently used transport with nothing to send (none when all are sending: the bound gives way rather than a message). */
  private closeLeastRecentlyUsed(): void {
    for (const [key, kept] of this.transports) {
      if (kept.sending > 0) continue;
      kept.transporter.close();
      this.transports.delete(key);
      return;
    }
  }
}
