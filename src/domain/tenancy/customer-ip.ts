import type { IpAddress, IpFamily } from './ip-address';
import { definedOnly } from './customer-domain';
import type { WatchNotifications, WatchStatus } from './watched-asset';

export interface CustomerIpFields extends WatchNotifications {
  label: string;
  status: WatchStatus;
}

/** An IP address of a customer whose presence on DNS blocklists the service watches. */
export class CustomerIp implements CustomerIpFields {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  label: string;
  ipAddress: string;
  ipFamily: IpFamily;
  status: WatchStatus;
  notificationPhoneNumber: string | null;
  notificationEmail: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(
    props: Partial<CustomerIpFields> & {
      publicId: string;
      organizationId: number;
      customerId: number;
      ip: IpAddress;
      now: Date;
    },
  ) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.ipAddress = props.ip.address;
    this.ipFamily = props.ip.family;
    this.label = props.label ?? props.ip.address;
    this.status = props.status ?? 'active';
    this.notificationPhoneNumber = props.notificationPhoneNumber ?? null;
    this.notificationEmail = props.notificationEmail ?? null;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** Answers whether the address changed, which makes earlier blocklist results stale. */
  change(change: Partial<CustomerIpFields> & { ip?: IpAddress }, now: Date): { readdressed: boolean } {
    const { ip, ...fields } = change;
    const readdressed = ip !== undefined && ip.address !== this.ipAddress;
    Object.assign(this, definedOnly(fields), { updatedAt: now });
    if (ip) {
      this.ipAddress = ip.address;
      this.ipFamily = ip.family;
    }
    return { readdressed };
  }
}
