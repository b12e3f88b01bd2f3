import type { Invitation } from '../../domain/identity/invitation';
import { token } from '../shared/token';
import type { Transaction } from '../shared/transaction';

/** Invitations by organization; "pending" means neither accepted nor revoked, and not expired at `now`. */
export interface InvitationRepository {
  /** `tx` on the writes: the caller's transaction, which the write joins (without it, the write stands alone). */
  add(invitation: Invitation, tokenHash: string, tx: Transaction): Promise<void>;
  listPending(organizationId: number, now: Date): Promise<Invitation[]>;
  hasPending(organizationId: number, email: string, now: Date): Promise<boolean>;
  /** `hasPending`, the same read on the caller's transaction (a read inside its work). */
  hasPendingIn(organizationId: number, email: string, now: Date, tx: Transaction): Promise<boolean>;
  /** Marks a pending invitation revoked; false when there is none with that id in the organization. */
  revoke(organizationId: number, id: string, now: Date, tx: Transaction): Promise<boolean>;
  findPendingByTokenHash(tokenHash: string, now: Date): Promise<Invitation | null>;
  /** Marks a pending invitation accepted, once: the second of two concurrent claims gets null. */
  claim(tokenHash: string, now: Date, tx: Transaction): Promise<Invitation | null>;
}
export const INVITATION_REPOSITORY = token<InvitationRepository>('InvitationRepository');

/** Sends the invitation e-mail through the organization's mail server (or the platform's); false when it could not. */
export interface InvitationMailer {
  send(organizationId: number, to: string, mail: { subject: string; text: string }): Promise<boolean>;
}
export const INVITATION_MAILER = token<InvitationMailer>('InvitationMailer');
