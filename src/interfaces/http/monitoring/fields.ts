import { MAX_DEPENDENCIES } from '../../../domain/monitoring/dependencies';
import { z } from 'zod';
import 'zod-openapi';
import { MANAGEMENT_TYPES, MONITOR_STATUSES } from '../../../domain/monitoring/monitor-kind';
import { LOCATION_THRESHOLD } from '../../../domain/monitoring/alert-settings';
import { CHECK_TOGGLES, MAX_SSL_NOTICE_DAYS } from '../../../domain/monitoring/check-config';
import { MONITOR_KEY } from '../../../domain/monitoring/monitor-key';

/**
 * A field whose bad values answer a spec code from the rules (invalidCheckInterval, invalidTimeout,
 * invalidCheckConfig, invalidUrl, connectHost*, invalidCheckMode) rather than validationFailed:
 * any JSON passes the schema, the documented type is what the rules accept.
 */
export const coded = (schema: Record<string, unknown>) => z.unknown().meta(schema).optional();

/** A record in a path or body: public id (uuid) or legacy integer id. */
export const RecordRefSchema = z
  .union([z.number().int().positive().max(2_147_483_647), z.string().trim().min(1).max(64)])
  .transform((value) => String(value));
export const CustomerRefSchema = z
  .union([z.number().int().positive().max(2_147_483_647), z.uuid()])
  .meta({ description: 'Customer id (int) or publicId (uuid)' });
export const QueryRef = z.string().regex(/^([1-9]\d{0,9}|[0-9a-fA-F-]{36})$/, 'An integer id or a public id (uuid)');

export const Name = z.string().trim().min(1).max(200);
export const Locations = z
  .array(z.string().max(40))
  .max(32)
  .meta({
    description:
      "Location codes from GET /api/locations: the configured catalogue (MONITOR_LOCATIONS), platform locations and the organization's " +
      "private ones (another organization's code is refused as unknown); an empty list stops checks from every location. " +
      'Omitted on create: the catalogue locations some running check process serves (the whole catalogue while none runs); ' +
      'private and other platform locations are never defaults',
  });

/** A monitor's stable key (monitoring as code): unique in the organization, null clears it. */
export const MonitorKey = z
  .string()
  .regex(MONITOR_KEY)
  .nullable()
  .meta({
    description:
      "A stable key the client chooses (letters, digits and . _ : / -, at most 128), unique among the organization's monitors " +
      '(monitorKeyTaken); monitoring-as-code tools match their entries to monitors by it. null: none',
  });

/** Fields every monitor kind has, as create bodies take them. */
export const commonCreateFields = {
  customerId: CustomerRefSchema.optional().meta({
    description: 'Required for organization-wide callers; customer-scoped callers use their own customer',
  }),
  key: MonitorKey.optional(),
  name: Name.optional().meta({ description: 'Defaults to the target host' }),
  status: z.enum(MONITOR_STATUSES).optional(),
  managementType: z.enum(MANAGEMENT_TYPES).optional().meta({
    description:
      'Defaults to managed (organization callers) or self_service (customer-scoped callers); choosing the other is for organization admins',
  }),
  checkInterval: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: 'Minutes, 1-1440 (1-43200 for heartbeats), at least the package minimum (checkIntervalTooLow)' }),
  timeoutSeconds: z.number().int().min(1).max(60).optional(),
  locations: Locations.optional(),
  allowPaidQuotaUpgrade: z
    .boolean()
    .optional()
    .meta({ description: 'Agent callers: consent to moving the customer to a paid quota tier when the quota is exhausted' }),
};

/** The same fields in a partial update: interval and timeout answer their own codes. */
export const commonPatchFields = {
  key: MonitorKey.optional(),
  name: Name.optional(),
  status: z.enum(MONITOR_STATUSES).optional(),
  managementType: z.enum(MANAGEMENT_TYPES).optional().meta({ description: 'Organization admins only (managementTypeOrgOnly)' }),
  checkInterval: coded({
    type: 'integer',
    minimum: 1,
    maximum: 43200,
    description: 'invalidCheckInterval, checkIntervalTooHigh, checkIntervalTooLow',
  }),
  timeoutSeconds: coded({ type: 'integer', minimum: 1, maximum: 60, description: 'invalidTimeout' }),
  locations: Locations.optional(),
};

/**
 * The most references a dependsOn list may carry before it is read at all: a bound against abuse,
 * far above MAX_DEPENDENCIES, so a list of 21 reaches the domain rule and answers its own code
 * (tooManyDependencies, data.max) rather than validationFailed.
 */
const DEPENDS_ON_HARD_CAP = 1000;

/** What a dependsOn list may be refused with (see decideDependencies). */
export const DEPENDENCY_ERRORS = ['dependencyCycle', 'dependencyNotFound', 'dependencyNotShared', 'tooManyDependencies'] as const;

/** What creating a monitor of any kind may answer besides its target's and dependencies' errors: interval, customer, role, quotas, key. */
export const MONITOR_CREATE_ERRORS = [
  'checkIntervalTooLow',
  'invalidCustomer',
  'roleForbidden',
  'selfServiceNotAllowed',
  'selfServiceQuotaReached',
  'managementTypeOrgOnly',
  'monitorQuotaReached',
  'monitorQuotaNoHigherTier',
  'paidQuotaUpgradeNotAuthorized',
  ...DEPENDENCY_ERRORS,
  'monitorKeyTaken',
] as const;

export const alertFields = {
  alertConsecutiveChecks: z.number().int().min(1).max(100).optional(),
  alertRetryInterval: z.number().int().min(10).max(3_600).optional().meta({
    description:
      "Seconds before a confirmation check, run from every location of the monitor at once, after a failure that has not yet reached alertConsecutiveChecks (or a recovery the location threshold has not decided yet); 10-3600, default the customer's (20)",
  }),
  alertLocationThreshold: z.string().regex(LOCATION_THRESHOLD).optional().meta({ description: 'Decimal 0-1 as a string, e.g. "0.50"' }),
  alertLocationThresholdCount: z.number().int().min(1).max(100).optional(),
  alertReminderInterval: z.number().int().min(0).max(43200).optional().meta({ description: 'Minutes; 0 = no reminders' }),
  sslExpiryReminderInterval: z.number().int().min(1).max(365).nullable().optional(),
  dnsblReminderInterval: z.number().int().min(1).max(365).nullable().optional(),
  dependsOn: z
    .array(RecordRefSchema)
    .max(DEPENDS_ON_HARD_CAP)
    .optional()
    .meta({
      description:
        'Monitors (id or publicId) this one depends on, replacing the list; [] removes them. While one of them is down or being ' +
        "confirmed down, a failure of this monitor opens no incident of its own (its state is dependencyDown): the root's " +
        'incident lists it. Monitors of its own customer, or ones the organization manages (managementType managed) of another ' +
        'customer, linked by an organization-wide caller (dependencyNotFound, dependencyNotShared); no loop (dependencyCycle, ' +
        `data.cycle lists the loop's publicIds in order); at most ${MAX_DEPENDENCIES} (tooManyDependencies, 400, data.max); a list of more than ${DEPENDS_ON_HARD_CAP} references is not read (validationFailed)`,
    }),
};

const toggles = Object.fromEntries(CHECK_TOGGLES.map((t) => [t, z.boolean().optional()])) as Record<
  (typeof CHECK_TOGGLES)[number],
  z.ZodOptional<z.ZodBoolean>
>;

export const checkConfigCreateFields = {
  ...toggles,
  minPageSize: z.number().int().min(0).nullable().optional(),
  maxPageSize: z.number().int().min(0).nullable().optional(),
  sslNoticeDays: z.number().int().min(1).max(MAX_SSL_NOTICE_DAYS).optional(),
};

export const checkConfigPatchFields = {
  ...Object.fromEntries(CHECK_TOGGLES.map((t) => [t, coded({ type: 'boolean', description: 'invalidCheckConfig' })])),
  minPageSize: coded({ type: ['integer', 'null'], minimum: 0, description: 'Bytes; at most maxPageSize (invalidCheckConfig)' }),
  maxPageSize: coded({ type: ['integer', 'null'], minimum: 0, description: 'Bytes (invalidCheckConfig)' }),
  sslNoticeDays: coded({ type: 'integer', minimum: 1, maximum: MAX_SSL_NOTICE_DAYS, description: 'invalidCheckConfig' }),
} as Record<string, ReturnType<typeof coded>>;

/** Login details a protocol check uses: stored encrypted, never returned (hasCredentials tells whether set). */
export const Credentials = z
  .object({
    username: z.string().min(1).max(256),
    password: z.string().min(1).max(1024).optional(),
    privateKey: z.string().min(1).max(16384).optional(),
  })
  .strict()
  .nullable()
  .meta({ id: 'MonitorCredentials', description: 'Write-only; null clears. Ignored and cleared in tcp checkMode.' });
