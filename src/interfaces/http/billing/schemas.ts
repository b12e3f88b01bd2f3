import { z } from 'zod';
import 'zod-openapi';
import { MANDATE_STATUSES } from '../../../domain/billing/mandate';

const CustomerRef = z
  .union([z.number().int().positive().max(2_147_483_647), z.string().trim().min(1).max(64)])
  .meta({ description: 'The customer: public id (uuid) or legacy integer id' });

export const QuotaTierSchema = z
  .object({
    index: z.number().int().meta({ description: "Position in the package's tiers; 0 is the base quota" }),
    monitorLimit: z.number().int(),
    priceMonthly: z.number().meta({ description: 'Monthly price of the tier, in the billing currency' }),
  })
  .meta({ id: 'BillingQuotaTier' });

export const CustomerQuotaSchema = z
  .object({
    customerId: z.number().int(),
    customerPublicId: z.uuid(),
    name: z.string(),
    packageId: z.number().int(),
    packageType: z.string().meta({ description: "The package's key" }),
    packageDisplayName: z.string(),
    tiers: z.array(QuotaTierSchema),
    currentTierIndex: z.number().int(),
    monitorLimit: z.number().int().meta({ description: "The current tier's limit" }),
    monitorsUsed: z.number().int().meta({ description: 'Monitors of the customer, all types together' }),
  })
  .meta({ id: 'CustomerQuota' });

export const QuotaTierOverviewSchema = z
  .object({
    autoQuotaUpgrade: z
      .boolean()
      .meta({ description: 'A monitor create that exhausts a quota moves the customer one tier up (and records its charge)' }),
    currency: z.string().meta({ description: 'ISO 4217 code of the tier prices (the billing currency)', example: 'EUR' }),
    customers: z.array(CustomerQuotaSchema),
  })
  .meta({ id: 'QuotaTierOverview' });

export const ChargeSchema = z
  .object({
    id: z.uuid(),
    amountCents: z.number().int(),
    currency: z.string(),
    description: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BillingCharge' });

export const QuotaTierChangeBody = z
  .object({
    customerId: CustomerRef.optional(),
    tierIndex: z.number().int().min(0).max(1000).optional().meta({ description: 'The tier to move the customer to (needs customerId)' }),
    autoQuotaUpgrade: z.boolean().optional(),
    allowPaidQuotaUpgrade: z
      .boolean()
      .optional()
      .meta({ description: 'Agent connections must send true to buy a dearer tier (paidQuotaUpgradeNotAuthorized)' }),
  })
  .strict()
  .refine((b) => b.tierIndex !== undefined || b.autoQuotaUpgrade !== undefined, 'Send tierIndex (with customerId) or autoQuotaUpgrade')
  .refine((b) => b.tierIndex === undefined || b.customerId !== undefined, { message: 'Required with tierIndex', path: ['customerId'] })
  .meta({ id: 'QuotaTierChange' });

export const QuotaTierChangeSchema = z
  .object({
    autoQuotaUpgrade: z.boolean(),
    customer: CustomerQuotaSchema.nullable().meta({ description: 'The customer after the move; null when only the switch changed' }),
    charge: ChargeSchema.nullable().meta({ description: 'The charge the move recorded (moves to a dearer tier), else null' }),
  })
  .meta({ id: 'QuotaTierChangeResult' });

export const MandateStartSchema = z
  .object({
    mandateId: z.string(),
    redirectUrl: z.url().meta({ description: 'Send the browser here; it comes back to /api/billing/mandate/return' }),
  })
  .meta({ id: 'MandateStart' });

export const MandateStateSchema = z
  .object({
    mandateId: z.string(),
    status: z.enum(MANDATE_STATUSES),
    changed: z.boolean().meta({ description: "Whether the organization's record changed" }),
  })
  .meta({ id: 'MandateState' });

export const MandateReturnQuery = z
  .object({
    mandateId: z.string().trim().min(1).max(64),
  })
  .strict();

export const DiscountBody = z
  .union([
    z.object({ code: z.string().trim().min(1).max(64).meta({ description: 'A discount code (case-insensitive)' }) }).strict(),
    z
      .object({
        percent: z.number().int().min(0).max(100).meta({ description: 'Platform administrators only; 0 clears the discount' }),
        organizationId: z
          .number()
          .int()
          .positive()
          .max(2_147_483_647)
          .optional()
          .meta({ description: "The organization it is granted to (default: the caller's)" }),
      })
      .strict(),
  ])
  .meta({ id: 'DiscountRequest' });

const DiscountFields = {
  discount: z
    .object({
      percent: z.number().int().meta({ description: 'Percent off every future charge' }),
      code: z.string().nullable().meta({ description: 'The code redeemed; null when platform staff granted it' }),
      appliedAt: z.iso.datetime(),
    })
    .nullable(),
};

export const DiscountSchema = z.object(DiscountFields).meta({ id: 'Discount' });

export const BillingAccountSchema = z
  .object({
    mandateId: z.string().nullable(),
    mandateStatus: z.enum(MANDATE_STATUSES).nullable().meta({ description: 'As last read from the provider (return or reconcile)' }),
    autoQuotaUpgrade: z.boolean(),
    ...DiscountFields,
  })
  .meta({ id: 'BillingAccount' });

export const CustomPriceSchema = z
  .object({
    customerId: z.number().int(),
    customerPublicId: z.uuid(),
    name: z.string(),
    packageType: z.string(),
    packagePriceMonthly: z.number().meta({ description: "The monthly price of the customer's current package tier" }),
    customPricing: z
      .object({
        priceMonthly: z.number(),
        currency: z.string(),
        note: z.string().nullable(),
      })
      .nullable()
      .meta({
        description:
          "The organization's own monthly price for this customer, overriding the package price; null: the package price applies",
      }),
    effectivePriceMonthly: z.number(),
  })
  .meta({ id: 'CustomPrice' });

export const CustomPriceBody = z
  .object({
    priceMonthly: z.number().min(0).max(1_000_000).meta({ description: 'Monthly price, at most two decimals (invalidCustomPrice)' }),
    currency: z.string().meta({ description: 'ISO 4217 code, upper-case (invalidCustomPrice)', example: 'EUR' }),
    note: z.string().trim().max(500).nullable().optional(),
  })
  .strict()
  .meta({ id: 'CustomPriceInput' });

export const CustomerParams = z.object({ customerId: z.string().min(1).max(64).meta({ description: 'publicId or legacy integer id' }) });
