import { AppError } from '../shared/app-error';

/** Deletion takes effect this long after the request and can be withdrawn until then. */
export const ACCOUNT_DELETION_GRACE_MS = 30 * 24 * 60 * 60_000;

export type AccountDeletionStatus = 'requested' | 'withdrawn' | 'completed';

/**
 * A user's request to delete their account.
 *   (none) --request--> requested --withdraw (before effectiveAt)--> withdrawn
 *                       requested --complete (at or after effectiveAt)--> completed
 * The last active administrator of an organization cannot request it (the organization would be
 * left without an owner).
 */
export class AccountDeletionRequest {
  id: string;
  userId: string;
  organizationId: number;
  status: AccountDeletionStatus = 'requested';
  requestedAt: Date;
  effectiveAt: Date;
  withdrawnAt: Date | null = null;
  completedAt: Date | null = null;
  version = 1;

  private constructor(props: { id: string; userId: string; organizationId: number; now: Date }) {
    this.id = props.id;
    this.userId = props.userId;
    this.organizationId = props.organizationId;
    this.requestedAt = props.now;
    this.effectiveAt = new Date(props.now.getTime() + ACCOUNT_DELETION_GRACE_MS);
  }

  static request(props: {
    id: string;
    userId: string;
    organizationId: number;
    isSoleActiveAdmin: boolean;
    now: Date;
  }): AccountDeletionRequest {
    if (props.isSoleActiveAdmin) {
      throw new AppError('accountDeletionSoleOwner', { organizationId: props.organizationId });
    }
    return new AccountDeletionRequest(props);
  }

  get isPending(): boolean {
    return this.status === 'requested';
  }

  withdraw(now: Date): void {
    if (this.status !== 'requested' || now.getTime() >= this.effectiveAt.getTime()) {
      throw new AppError('accountDeletionNotRequested');
    }
    this.status = 'withdrawn';
    this.withdrawnAt = now;
  }

  isDue(now: Date): boolean {
    return this.status === 'requested' && now.getTime() >= this.effectiveAt.getTime();
  }

  complete(now: Date): void {
    if (!this.isDue(now)) throw new AppError('accountDeletionNotRequested');
    this.status = 'completed';
    this.completedAt = now;
  }
}
