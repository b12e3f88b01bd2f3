import { z } from 'zod';
import { CUSTOMER_STATUSES } from '../../../domain/tenancy/customer';
import { DateInput, Email, Label, OptionalText, PhoneNumber, Timestamp } from './fields';

const Decimal01 = z
  .union([
    z
      .string()
      .trim()
      .regex(/^(0(\.\d{1,2})?|1(\.0{1,2})?)$/, 'A decimal between 0 and 1, e.g. "0.50"'),
    z.number().min(0).max(1),
  ])
  .transform((value) => Number(value).toFixed(2));
const Minutes = (max: number) => z.number().int().min(0).max(max);
const JsonObject = z.record(z.string().max(100), z.unknown());

/** Every writable customer field; creates require name and email. */
const customerFields = {
  name: Label,
  email: Email,
  notificationPhoneNumber: PhoneNumber.nullable().optional(),
  notificationEmail: Email.nullable().optional(),
  packageId: z.number().int().positive().max(2_147_483_647).optional(),
  packageType: z.string().trim().min(1).max(100).optional().meta({ description: 'A package key or display name of the organization' }),
  status: z.enum(CUSTOMER_STATUSES).optional(),
  allowedCheckCountryCodes: z
    .array(z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code'))
    .max(250)
    .nullable()
    .optional(),
  cancellationDate: DateInput.nullable().optional(),
  customFields: z
    .record(z.string().max(64), z.unknown())
    .optional()
    .meta({ description: 'Values by field key; on PATCH merged key by key, null clears a key' }),
  monthlyReportsEnabled: z.boolean().optional(),
  notificationChannels: z.array(z.string().trim().min(1).max(100)).max(50).nullable().optional(),
  notificationTargets: z.array(z.string().trim().min(1).max(254)).max(50).nullable().optional(),
  notificationRules: JsonObject.nullable().optional(),
  companyName: OptionalText(200),
  street: OptionalText(200),
  postalCode: OptionalText(20),
  city: OptionalText(100),
  country: OptionalText(100),
  vatId: OptionalText(30),
  paymentProviderCustomerId: OptionalText(200),
  paymentProviderSubscriptionId: OptionalText(200),
  customPricing: JsonObject.nullable().optional(),
  alertConsecutiveChecks: z.number().int().min(1).max(20).optional(),
  alertRetryInterval: z.number().int().min(10).max(3_600).optional().meta({
    description:
      'Seconds before a confirmation check, run from every location of the monitor at once, after a failure that has not yet reached alertConsecutiveChecks (or a recovery the location threshold has not decided yet); 10-3600, default 20',
  }),
  alertLocationThreshold: Decimal01.optional(),
  alertLocationThresholdCount: z.number().int().min(1).max(50).optional(),
  alertReminderInterval: Minutes(10_080).optional(),
  dnsblReminderInterval: Minutes(43_200).nullable().optional(),
  sslExpiryReminderInterval: Minutes(43_200).nullable().optional(),
  allowSelfService: z.boolean().optional(),
  maxSelfServiceUrls: z.number().int().min(0).max(100_000).optional(),
  canEditManaged: z.boolean().optional(),
};

export const CreateCustomerBody = z.object(customerFields).strict().meta({ id: 'CreateCustomer' });
export const UpdateCustomerBody = z.object(customerFields).partial().strict().meta({ id: 'UpdateCustomer' });
export const BulkCustomersBody = z
  .object({ customers: z.array(z.unknown()).min(1).max(500) })
  .strict()
  .meta({ description: 'Up to 500 rows, each a POST /api/customers body' });

export const CustomerSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    name: z.string(),
    email: z.string(),
    notificationPhoneNumber: z.string().nullable(),
    notificationEmail: z.string().nullable(),
    packageId: z.number().int(),
    packageType: z.string(),
    packageDisplayName: z.string().nullable(),
    packageConfig: z.object({
      id: z.number().int(),
      key: z.string(),
      displayName: z.string().nullable(),
      minCheckIntervalMinutes: z.number().int(),
      monitorLimit: z.number().int().meta({ description: "Monitor limit of the customer's current quota tier" }),
      smsMonthlyAllowance: z.number().int(),
    }),
    status: z.enum(CUSTOMER_STATUSES),
    allowedCheckCountryCodes: z.array(z.string()).nullable(),
    cancellationDate: Timestamp.nullable(),
    cancelledAt: Timestamp.nullable(),
    customFields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    monthlyReportsEnabled: z.boolean(),
    notificationChannels: z.array(z.string()).nullable(),
    notificationTargets: z.array(z.string()).nullable(),
    notificationRules: z.record(z.string(), z.unknown()).nullable(),
    smsUsageCurrentMonth: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Customer' });

export const CustomerFullSchema = CustomerSchema.extend({
  companyName: z.string().nullable(),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  vatId: z.string().nullable(),
  paymentProviderCustomerId: z.string().nullable(),
  paymentProviderSubscriptionId: z.string().nullable(),
  customPricing: z.record(z.string(), z.unknown()).nullable(),
  alertConsecutiveChecks: z.number().int(),
  alertRetryInterval: z.number().int().meta({ description: 'Seconds before a confirmation check (10-3600)' }),
  alertLocationThreshold: z.string().meta({ description: 'Decimal 0-1: share of locations that must fail' }),
  alertLocationThresholdCount: z.number().int(),
  alertReminderInterval: z.number().int().meta({ description: 'Minutes; 0 = no reminders' }),
  dnsblReminderInterval: z.number().int().nullable(),
  sslExpiryReminderInterval: z.number().int().nullable(),
  allowSelfService: z.boolean(),
  maxSelfServiceUrls: z.number().int(),
  canEditManaged: z.boolean(),
  quotaTierIndex: z.number().int(),
}).meta({ id: 'CustomerFull' });

export const SmsUsageSchema = z
  .object({
    month: z.string().meta({ description: 'First day of the month counted (UTC), YYYY-MM-01' }),
    customers: z.array(
      z.object({
        customerId: z.number().int(),
        publicId: z.uuid(),
        name: z.string(),
        packageId: z.number().int(),
        smsUsed: z.number().int(),
        smsAllowance: z.number().int(),
        smsRemaining: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'SmsUsage' });
