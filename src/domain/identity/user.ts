import { AppError } from '../shared/app-error';
import type { Role } from './role';
import { StepUpState, failedStepUp, assertStepUpOpen } from './step-up';

export class User {
  id: string;
  organizationId: number;
  /** A user with a customer is customer-bound: confined to that customer like a customer token. */
  customerId: number | null;
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  isActive = true;
  isGlobalAdmin = false;
  isGlobalSupporter = false;
  twoFactorEnabled = false;
  /** TOTP secret (base32), set when enrolment starts; enrolment completes at the first verified code. */
  totpSecret: string | null = null;
  backupCodeHashes: string[] = [];
  mfaFailedAttempts = 0;
  mfaLockedUntil: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    id: string;
    organizationId: number;
    customerId?: number | null;
    name: string;
    email: string;
    passwordHash: string;
    role: Role;
    now: Date;
  }) {
    this.id = props.id;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId ?? null;
    this.name = props.name;
    this.email = User.normalizeEmail(props.email);
    this.passwordHash = props.passwordHash;
    this.role = props.role;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  static normalizeEmail(email: string): string {
    return email.trim().toLowerCase();
  }

  get firstName(): string {
    return this.name.trim().split(/\s+/)[0] ?? '';
  }

  get lastName(): string {
    return this.name.trim().split(/\s+/).slice(1).join(' ');
  }

  get hasPlatformFlag(): boolean {
    return this.isGlobalAdmin || this.isGlobalSupporter;
  }

  get isActiveAdmin(): boolean {
    return this.isActive && this.role === 'admin';
  }

  get stepUp(): StepUpState {
    return { failedAttempts: this.mfaFailedAttempts, lockedUntil: this.mfaLockedUntil };
  }

  rename(name: string, now: Date): void {
    this.name = name;
    this.updatedAt = now;
  }

  changeRole(role: Role, now: Date): void {
    this.role = role;
    this.updatedAt = now;
  }

  setActive(isActive: boolean, now: Date): void {
    this.isActive = isActive;
    this.updatedAt = now;
  }

  /** The platform administrator named by the service's configuration: active, with the platform flag. */
  grantPlatformAdmin(now: Date): void {
    this.isGlobalAdmin = true;
    this.isActive = true;
    this.updatedAt = now;
  }

  /**
   * What is left of an account once its deletion is carried out: no name, an address that cannot
   * receive mail or sign in, inactive, without two-step verification. The row stays for the records
   * that name it.
   */
  anonymize(now: Date): void {
    this.rename('Deleted user', now);
    this.email = `deleted-${this.id}@deleted.invalid`;
    this.setActive(false, now);
    this.resetTwoFactor(now);
  }

  changePassword(passwordHash: string, now: Date): void {
    this.passwordHash = passwordHash;
    this.updatedAt = now;
  }

  beginTwoFactorEnrolment(secret: string, backupCodeHashes: string[], now: Date): void {
    if (this.twoFactorEnabled) throw new AppError('twoFactorAlreadyEnabled');
    this.totpSecret = secret;
    this.backupCodeHashes = backupCodeHashes;
    this.updatedAt = now;
  }

  /** Refuses while locked; call before checking a code. */
  assertCanAttemptCode(now: Date): void {
    assertStepUpOpen(this.stepUp, now);
  }

  /** A verified code completes enrolment and clears the failure counter. */
  codeAccepted(now: Date): void {
    this.twoFactorEnabled = true;
    this.mfaFailedAttempts = 0;
    this.mfaLockedUntil = null;
    this.updatedAt = now;
  }

  codeRejected(now: Date): void {
    const next = failedStepUp(this.stepUp, now);
    this.mfaFailedAttempts = next.failedAttempts;
    this.mfaLockedUntil = next.lockedUntil;
    this.updatedAt = now;
  }

  consumeBackupCode(hash: string, now: Date): boolean {
    const index = this.backupCodeHashes.indexOf(hash);
    if (index < 0) return false;
    this.backupCodeHashes = this.backupCodeHashes.filter((_, i) => i !== index);
    this.updatedAt = now;
    return true;
  }

  resetTwoFactor(now: Date): void {
    this.twoFactorEnabled = false;
    this.totpSecret = null;
    this.backupCodeHashes = [];
    this.mfaFailedAttempts = 0;
    this.mfaLockedUntil = null;
    this.updatedAt = now;
  }
}
