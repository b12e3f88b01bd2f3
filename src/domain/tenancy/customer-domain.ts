import { normalizeDomainName } from './domain-name';
import { assertNoIssues, issue } from './validation';
import type { WatchNotifications, WatchStatus } from './watched-asset';

export interface CustomerDomainFields extends WatchNotifications {
  label: string;
  domainName: string;
  status: WatchStatus;
  expiryWarningDays: number;
  expiryErrorDays: number;
}

export const DOMAIN_EXPIRY_DEFAULTS = { expiryWarningDays: 30, expiryErrorDays: 7 } as const;

/** The error threshold is the later, more urgent one: it cannot be more days out than the warning. */
function assertThresholds(fields: Pick<CustomerDomainFields, 'expiryWarningDays' | 'expiryErrorDays'>): void {
  assertNoIssues(
    fields.expiryErrorDays > fields.expiryWarningDays
      ? [issue(['expiryErrorDays'], 'expiryErrorDays cannot exceed expiryWarningDays')]
      : [],
  );
}

/** The canonical name, or 400 validationFailed on domainName. */
function validDomainName(input: string): string {
  const name = normalizeDomainName(input);
  if (name === null) assertNoIssues([issue(['domainName'], 'Must be a domain name such as example.com')]);
  return name!;
}

/** A domain of a customer whose registration expiry the service watches. */
export class CustomerDomain implements CustomerDomainFields {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  label: string;
  domainName: string;
  status: WatchStatus;
  expiryWarningDays: number;
  expiryErrorDays: number;
  notificationPhoneNumber: string | null;
  notificationEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(
    props: Pick<CustomerDomainFields, 'domainName'> &
      Partial<CustomerDomainFields> & {
        publicId: string;
        organizationId: number;
        customerId: number;
        now: Date;
      },
  ) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.domainName = validDomainName(props.domainName);
    this.label = props.label ?? this.domainName;
    this.status = props.status ?? 'active';
    this.expiryWarningDays = props.expiryWarningDays ?? DOMAIN_EXPIRY_DEFAULTS.expiryWarningDays;
    this.expiryErrorDays = props.expiryErrorDays ?? Math.min(DOMAIN_EXPIRY_DEFAULTS.expiryErrorDays, this.expiryWarningDays);
    this.notificationPhoneNumber = props.notificationPhoneNumber ?? null;
    this.notificationEmail = props.notificationEmail ?? null;
    this.createdAt = props.now;
    this.updatedAt = props.now;
    assertThresholds(this);
  }

  /** Answers whether the domain name changed, which makes earlier check results stale. */
  change(change: Partial<CustomerDomainFields>, now: Date): { renamed: boolean } {
    const next = { ...this.fields(), ...definedOnly(change) };
    next.domainName = validDomainName(next.domainName);
    assertThresholds(next);
    const renamed = next.domainName !== this.domainName;
    Object.assign(this, next, { updatedAt: now });
    return { renamed };
  }

  private fields(): CustomerDomainFields {
    const { label, domainName, status, expiryWarningDays, expiryErrorDays, notificationPhoneNumber, notificationEmail } = this;
    return { label, domainName, status, expiryWarningDays, expiryErrorDays, notificationPhoneNumber, notificationEmail };
  }
}

export const definedOnly = <T extends object>(change: T): Partial<T> =>
  Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as Partial<T>;
