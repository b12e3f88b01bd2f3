import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { type OrganizationSmtp, type SmtpChange, draftSmtp } from '../../domain/notifications/organization-smtp';
import { type Actor, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TargetPolicy } from '../shared/target-policy';
import type { CredentialCipher } from '../monitoring/ports';
import type { OrganizationSmtpStore, SmtpVerifier } from './ports';

export const smtpPasswordContext = (organizationId: number) => `organization-smtp:${organizationId}:password`;

/**
 * PATCH /api/organization/smtp: merges the change, vets the host through the target policy
 * (smtpHostNotPublic; CHECK_PRIVATE_ALLOWLIST applies), connects to the vetted address and logs in
 * (smtpVerificationFailed, data.reason), and only then stores the settings, the password sealed.
 */
export class UpdateOrganizationSmtp {
  constructor(
    private readonly store: OrganizationSmtpStore,
    private readonly policy: TargetPolicy,
    private readonly verifier: SmtpVerifier,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, change: SmtpChange): Promise<OrganizationSmtp> {
    requireAction(actor, 'smtp.manage');
    const organizationId = actor.scope.organizationId;
    const current = await this.store.get(organizationId);
    const draft = draftSmtp(current, change);
    const vetting = await this.policy.vet(draft.host);
    if (!vetting.ok) throw new AppError('smtpHostNotPublic', { reason: vetting.reason });
    const context = smtpPasswordContext(organizationId);
    const password =
      draft.password !== undefined
        ? draft.password
        : current?.passwordCiphertext
          ? this.cipher.decrypt(current.passwordCiphertext, context)
          : null;
    const outcome = await this.verifier.verify({
      hostname: vetting.hostname,
      address: vetting.addresses[0]!,
      port: draft.port,
      security: draft.security,
      username: draft.username,
      password,
    });
    if (!outcome.ok) throw new AppError('smtpVerificationFailed', { reason: outcome.reason });
    const now = this.clock.now();
    const settings: OrganizationSmtp = {
      organizationId,
      host: draft.host,
      port: draft.port,
      security: draft.security,
      username: draft.username,
      passwordCiphertext: password === null ? null : this.cipher.encrypt(password, context),
      fromAddress: draft.fromAddress,
      verifiedAt: now,
      updatedAt: now,
    };
    await this.tx.run((tx) => this.store.put(settings, tx));
    return settings;
  }
}
