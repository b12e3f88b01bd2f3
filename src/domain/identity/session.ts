/** Sessions last this long from sign-in (better-auth's default of 7 days). */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60_000;
/** A password-verified sign-in waiting for its second factor expires quickly. */
export const TWO_FACTOR_CHALLENGE_MS = 10 * 60_000;

export type SessionKind = 'session' | 'twoFactorChallenge';

/** A signed-in browser or client. Only the SHA-256 of its token is stored. */
export class Session {
  id: string;
  userId: string;
  tokenHash: string;
  kind: SessionKind;
  expiresAt: Date;
  stepUpVerifiedAt: Date | null = null;
  createdAt: Date;
  version = 1;

  constructor(props: { id: string; userId: string; tokenHash: string; kind: SessionKind; now: Date }) {
    this.id = props.id;
    this.userId = props.userId;
    this.tokenHash = props.tokenHash;
    this.kind = props.kind;
    this.createdAt = props.now;
    this.expiresAt = new Date(props.now.getTime() + (props.kind === 'session' ? SESSION_LIFETIME_MS : TWO_FACTOR_CHALLENGE_MS));
  }

  isExpired(now: Date): boolean {
    return this.expiresAt.getTime() <= now.getTime();
  }

  markSteppedUp(now: Date): void {
    this.stepUpVerifiedAt = now;
  }
}
