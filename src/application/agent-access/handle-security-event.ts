import { AppError } from '../../domain/shared/app-error';
import type { AgentRegistration } from '../../domain/agent-access/agent-registration';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type { UserRepository } from '../identity/ports';
import type {
  AgentAccessTokenRepository,
  AgentRegistrationRepository,
  CredentialCacheInvalidator,
  ReplayGuard,
  TrustedIssuers,
} from './ports';

/** CAEP and RISC events that end an identity provider's grants for a subject. */
export const REVOKING_EVENTS = new Set([
  'https://schemas.openid.net/secevent/caep/event-type/session-revoked',
  'https://schemas.openid.net/secevent/risc/event-type/account-disabled',
  'https://schemas.openid.net/secevent/risc/event-type/account-purged',
  'https://schemas.openid.net/secevent/risc/event-type/sessions-revoked',
  'https://schemas.openid.net/secevent/risc/event-type/credential-compromise',
]);

const SET_REPLAY_WINDOW_MS = 7 * 24 * 3600 * 1000;

/**
 * POST /agent/event/notify (RFC 8417 security event tokens, pushed as in RFC 8935). A trusted
 * issuer may revoke the registrations it brought in: by `iss_sub`, `email` or `opaque` (registration
 * id) subject. Any refusal is the same bare invalid_request; a replayed event is accepted unapplied.
 */
export class HandleSecurityEvent {
  constructor(
    private readonly trusted: TrustedIssuers,
    private readonly replays: ReplayGuard,
    private readonly registrations: AgentRegistrationRepository,
    private readonly tokens: AgentAccessTokenRepository,
    private readonly users: UserRepository,
    private readonly transactions: TransactionRunner,
    private readonly cache: CredentialCacheInvalidator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<{ revoked: number }> {
    const now = this.clock.now();
    const check = token ? await this.trusted.verifySecurityEvent(token, now) : { status: 'invalid' as const };
    if (check.status !== 'valid') throw new AppError('invalid_request');
    const event = check.claims;
    if (!(await this.replays.firstUse(event.issuer, event.jti, new Date(now.getTime() + SET_REPLAY_WINDOW_MS)))) {
      return { revoked: 0 };
    }
    const targets = new Map<string, AgentRegistration>();
    for (const [type, payload] of Object.entries(event.events)) {
      if (!REVOKING_EVENTS.has(type)) continue;
      const subject = (payload.subject ?? event.subjectId) as Record<string, unknown> | null | undefined;
      for (const registration of await this.matching(event.issuer, subject)) targets.set(registration.id, registration);
    }
    const live = [...targets.values()].filter((registration) => registration.status !== 'revoked');
    await this.transactions.run(async (tx) => {
      for (const registration of live) {
        registration.revoke(now);
        await this.registrations.save(registration, tx);
      }
      await this.tokens.revokeForRegistrations(
        live.map((r) => r.id),
        now,
        tx,
      );
    });
    this.cache.invalidate();
    return { revoked: live.length };
  }

  private async matching(issuer: string, subject: Record<string, unknown> | null | undefined): Promise<AgentRegistration[]> {
    if (!subject || typeof subject !== 'object') return [];
    const text = (key: string) => (typeof subject[key] === 'string' ? (subject[key] as string) : undefined);
    if (subject.format === 'iss_sub' && text('iss') === issuer && text('sub')) {
      return this.registrations.findByIssuer(issuer, { subject: text('sub') });
    }
    if (subject.format === 'email' && text('email')) {
      const user = await this.users.findByEmail(text('email')!);
      return user ? this.registrations.findByIssuer(issuer, { userIds: [user.id] }) : [];
    }
    if (subject.format === 'opaque' && text('id')) return this.registrations.findByIssuer(issuer, { ids: [text('id')!] });
    return [];
  }
}
