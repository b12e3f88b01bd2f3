import { z } from 'zod';
import { PACKAGE_KEY } from '../../../domain/tenancy/package-config';
import { Timestamp } from './fields';

const QuotaTierSchema = z
  .object({
    monitorLimit: z.number().int().min(1).max(1_000_000),
    priceMonthly: z.number().min(0).max(1_000_000).meta({ description: "In the organization's billing currency" }),
  })
  .strict();

const packageFields = {
  key: z.string().trim().toLowerCase().regex(PACKAGE_KEY, 'Lowercase letters, digits, - and _, up to 64'),
  displayName: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  minCheckIntervalMinutes: z
    .number()
    .int()
    .min(1)
    .max(1440)
    .meta({ description: 'Shortest check interval this package allows (checkIntervalTooLow below it)' }),
  quotaTiers: z
    .array(QuotaTierSchema)
    .min(1)
    .max(20)
    .meta({ description: 'Ordered by rising monitorLimit; tier 0 is the base quota, higher tiers are automatic upgrades' }),
  monitorLimit: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .meta({ description: 'Shorthand for one free tier: quotaTiers [{monitorLimit, priceMonthly: 0}]' }),
  smsMonthlyAllowance: z.number().int().min(0).max(1_000_000),
  isDefault: z.boolean().meta({ description: 'Customers created without a package get the default one' }),
};

type TierInput = { quotaTiers?: Array<{ monitorLimit: number; priceMonthly: number }>; monitorLimit?: number };

/** monitorLimit alone is a one-tier quota; with quotaTiers it must equal the base tier's limit. */
const withTiers = <T extends TierInput>(value: T, ctx: z.RefinementCtx) => {
  const { monitorLimit, quotaTiers, ...rest } = value;
  if (quotaTiers && monitorLimit !== undefined && quotaTiers[0]!.monitorLimit !== monitorLimit) {
    ctx.addIssue({ code: 'custom', path: ['monitorLimit'], message: 'Must equal quotaTiers[0].monitorLimit' });
  }
  const tiers = quotaTiers ?? (monitorLimit !== undefined ? [{ monitorLimit, priceMonthly: 0 }] : undefined);
  return { ...rest, ...(tiers ? { quotaTiers: tiers } : {}) };
};

export const CreatePackageConfigBody = z
  .object({
    ...packageFields,
    minCheckIntervalMinutes: packageFields.minCheckIntervalMinutes.default(5),
    quotaTiers: packageFields.quotaTiers.optional(),
    monitorLimit: packageFields.monitorLimit.optional(),
    smsMonthlyAllowance: packageFields.smsMonthlyAllowance.default(0),
    isDefault: packageFields.isDefault.default(false),
  })
  .strict()
  .refine((value) => value.quotaTiers !== undefined || value.monitorLimit !== undefined, {
    path: ['quotaTiers'],
    message: 'Send quotaTiers or monitorLimit',
  })
  .transform(withTiers)
  .meta({ id: 'CreatePackageConfig' });

export const UpdatePackageConfigBody = z.object(packageFields).partial().strict().transform(withTiers).meta({ id: 'UpdatePackageConfig' });

export const PackageConfigSchema = z
  .object({
    id: z.number().int(),
    publicId: z.uuid(),
    organizationId: z.number().int(),
    key: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    minCheckIntervalMinutes: z.number().int(),
    monitorLimit: z.number().int().meta({ description: 'Base quota (tier 0)' }),
    quotaTiers: z.array(z.object({ monitorLimit: z.number().int(), priceMonthly: z.number() })),
    smsMonthlyAllowance: z.number().int(),
    isDefault: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'PackageConfig' });
