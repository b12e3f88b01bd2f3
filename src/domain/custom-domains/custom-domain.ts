import { AppError } from '../shared/app-error';

/**
 * `whiteLabel`: the organization's whole API and pages answer under the host. `statusPage`: the host
 * serves one status page at `/`.
 */
export const CUSTOM_DOMAIN_KINDS = ['whiteLabel', 'statusPage'] as const;
export type CustomDomainKind = (typeof CUSTOM_DOMAIN_KINDS)[number];

/**
 * pending (added, ownership not proved) -> verified (the TXT record was seen) -> active (routed).
 * Only verified and active entries hold the hostname; a pending one blocks nobody.
 */
export const CUSTOM_DOMAIN_STATUSES = ['pending', 'verified', 'active'] as const;
export type CustomDomainStatus = (typeof CUSTOM_DOMAIN_STATUSES)[number];

/** A pending entry is dropped this long after it was added (the spec's limit). */
export const PENDING_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** The owner proves control by publishing the entry's token as a TXT record at this label under the hostname. */
export const VERIFICATION_LABEL = '_monitoring-verify';

export interface CustomDomainProps {
  id?: number;
  publicId: string;
  organizationId: number;
  /** The customer whose status page the host serves (customer-scoped callers see only theirs); null: the organization's. */
  customerId: number | null;
  hostname: string;
  kind: CustomDomainKind;
  /** The status page a `statusPage` host serves; null for `whiteLabel`. */
  statusPageId: string | null;
  status: CustomDomainStatus;
  verificationToken: string;
  createdAt: Date;
  updatedAt: Date;
  verifiedAt: Date | null;
  activatedAt: Date | null;
  version: number;
}

export class CustomDomain {
  id: number;
  readonly publicId: string;
  readonly organizationId: number;
  readonly customerId: number | null;
  readonly hostname: string;
  readonly kind: CustomDomainKind;
  readonly statusPageId: string | null;
  status: CustomDomainStatus;
  readonly verificationToken: string;
  readonly createdAt: Date;
  updatedAt: Date;
  verifiedAt: Date | null;
  activatedAt: Date | null;
  version: number;

  constructor(props: CustomDomainProps) {
    this.id = props.id ?? 0;
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.hostname = props.hostname;
    this.kind = props.kind;
    this.statusPageId = props.statusPageId;
    this.status = props.status;
    this.verificationToken = props.verificationToken;
    this.createdAt = props.createdAt;
    this.updatedAt = props.updatedAt;
    this.verifiedAt = props.verifiedAt;
    this.activatedAt = props.activatedAt;
    this.version = props.version;
  }

  /** A new pending claim; `hostname` is already normalized (normalizeClaimHostname). */
  static claim(props: {
    publicId: string;
    organizationId: number;
    customerId: number | null;
    hostname: string;
    kind: CustomDomainKind;
    statusPageId: string | null;
    verificationToken: string;
    now: Date;
  }): CustomDomain {
    if ((props.kind === 'statusPage') !== (props.statusPageId !== null)) throw new AppError('statusPageNotFound');
    return new CustomDomain({
      ...props,
      status: 'pending',
      createdAt: props.now,
      updatedAt: props.now,
      verifiedAt: null,
      activatedAt: null,
      version: 1,
    });
  }

  /** Where the owner publishes the token: `_monitoring-verify.<hostname>`. */
  get verificationRecordName(): string {
    return `${VERIFICATION_LABEL}.${this.hostname}`;
  }

  /** When a pending entry is dropped; null once verified. */
  get expiresAt(): Date | null {
    return this.status === 'pending' ? new Date(this.createdAt.getTime() + PENDING_LIFETIME_MS) : null;
  }

  /** A pending entry 7 days old is gone: it answers as missing and no longer counts for anything. */
  isExpired(now: Date): boolean {
    return this.expiresAt !== null && now.getTime() >= this.expiresAt.getTime();
  }

  /** Whether these TXT values (one per record, chunks joined) carry this entry's token. */
  isProvedBy(txtValues: readonly string[]): boolean {
    return txtValues.some((value) => value.trim() === this.verificationToken);
  }

  /** pending -> verified once the record was seen; verified and active stay as they are. */
  verify(now: Date): void {
    if (this.isExpired(now)) throw new AppError('customDomainNotFound');
    if (this.status !== 'pending') return;
    this.status = 'verified';
    this.verifiedAt = now;
    this.updatedAt = now;
  }

  /** verified -> active: requests for the host are routed from now on. A pending entry is verified first. */
  activate(now: Date): void {
    if (this.isExpired(now)) throw new AppError('customDomainNotFound');
    if (this.status === 'pending') throw new AppError('conflict', { reason: 'customDomainNotVerified' });
    if (this.status === 'active') return;
    this.status = 'active';
    this.activatedAt = now;
    this.updatedAt = now;
  }
}
