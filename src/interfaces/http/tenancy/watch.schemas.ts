import { z } from 'zod';
import { WATCH_STATUSES } from '../../../domain/tenancy/watched-asset';
import { IP_FAMILIES } from '../../../domain/tenancy/ip-address';
import { PageQuery, QueryId, pagedSchema } from '../shared/paging';
import { DomainNameInput, Email, Label, PhoneNumber, Ref, SearchQuery, Timestamp } from './fields';

const notifications = {
  notificationPhoneNumber: PhoneNumber.nullable().optional(),
  notificationEmail: Email.nullable().optional(),
};
const Days = (min: number) => z.number().int().min(min).max(365);

const domainFields = {
  domainName: DomainNameInput,
  label: Label.optional(),
  status: z.enum(WATCH_STATUSES).optional(),
  expiryWarningDays: Days(1).optional().meta({ description: 'Warn this many days before expiry (default 30)' }),
  expiryErrorDays: Days(0).optional().meta({ description: 'Alert this many days before expiry (default 7); at most expiryWarningDays' }),
  ...notifications,
};
export const CreateDomainBody = z.object(domainFields).strict().meta({ id: 'CreateCustomerDomain' });
export const UpdateDomainBody = z.object(domainFields).partial().strict().meta({ id: 'UpdateCustomerDomain' });

const ipFields = {
  ipAddress: z.string().max(64).meta({ description: 'IPv4 or IPv6; stored in canonical form (IPv6 compressed, lowercase)' }),
  label: Label.optional(),
  status: z.enum(WATCH_STATUSES).optional(),
  ...notifications,
};
export const CreateIpBody = z.object(ipFields).strict().meta({ id: 'CreateCustomerIp' });
export const UpdateIpBody = z.object(ipFields).partial().strict().meta({ id: 'UpdateCustomerIp' });

export const DomainListQuery = z.object({ customerId: Ref.optional(), search: SearchQuery, ...PageQuery });
export const IpListQuery = z.object({
  organizationId: QueryId.optional(),
  customerId: Ref.optional(),
  search: SearchQuery,
  ...PageQuery,
});

const record = {
  id: z.number().int(),
  publicId: z.uuid(),
  customerId: z.number().int(),
  label: z.string(),
  status: z.enum(WATCH_STATUSES),
  notificationPhoneNumber: z.string().nullable(),
  notificationEmail: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const CustomerDomainSchema = z
  .object({
    ...record,
    domainName: z.string(),
    expiryWarningDays: z.number().int(),
    expiryErrorDays: z.number().int(),
  })
  .meta({ id: 'CustomerDomain' });

export const ExpirySchema = z
  .object({
    domainExpiresAt: Timestamp.nullable(),
    domainRegistrar: z.string().nullable(),
    isExpired: z.boolean(),
    lastError: z.string().nullable(),
    lastCheckedAt: Timestamp.nullable(),
    lastChangedAt: Timestamp.nullable(),
    lastNotifiedWarningAt: Timestamp.nullable(),
    lastNotifiedErrorAt: Timestamp.nullable(),
    lastNotifiedExpiredAt: Timestamp.nullable(),
  })
  .meta({ id: 'DomainExpiry' });

export const CustomerDomainWithExpirySchema = CustomerDomainSchema.extend({ expiry: ExpirySchema }).meta({
  id: 'CustomerDomainWithExpiry',
});

export const CustomerIpSchema = z
  .object({
    ...record,
    ipAddress: z.string(),
    ipFamily: z.enum(IP_FAMILIES),
  })
  .meta({ id: 'CustomerIp' });

export const DnsblSchema = z
  .object({
    isListed: z.boolean(),
    listedCount: z.number().int(),
    listings: z.array(
      z.object({
        name: z.string(),
        reason: z.string(),
        listKey: z.string(),
        delistUrl: z.string(),
        resultCode: z.string(),
      }),
    ),
    lastError: z.string().nullable(),
    lastCheckedAt: Timestamp.nullable(),
    lastChangedAt: Timestamp.nullable(),
    lastListedAt: Timestamp.nullable(),
    lastCleanAt: Timestamp.nullable(),
    lastNotifiedListedAt: Timestamp.nullable(),
    lastNotifiedCleanAt: Timestamp.nullable(),
  })
  .meta({ id: 'IpDnsbl' });

export const CustomerIpWithDnsblSchema = CustomerIpSchema.extend({ dnsbl: DnsblSchema }).meta({ id: 'CustomerIpWithDnsbl' });

export const DomainPageSchema = pagedSchema(CustomerDomainSchema, 'CustomerDomainPage');
export const IpPageSchema = pagedSchema(CustomerIpSchema, 'CustomerIpPage');
