import type { ErrorCode } from '../../../domain/shared/error-codes';

/**
 * The codes about one field of the request body: their answers always carry `data.field`, a JSON
 * pointer (RFC 6901) to it (`/checkInterval`, `/config/url`, `/targets/0/id`). Schema issues
 * (validationFailed) point at their first issue's path. Other codes may carry it too where a rule
 * concerns a field (an objective's subject that is not found: `/subject/websiteId`).
 */
export const FIELD_ERROR_CODES = [
  'validationFailed',
  'checkIntervalTooLow',
  'checkIntervalTooHigh',
  'invalidCheckInterval',
  'invalidTimeout',
  'invalidCheckConfig',
  'invalidUrl',
  'connectHostInvalid',
  'connectHostNotPublic',
  'connectTlsInsecureWithoutHost',
  'portRequiredForTcp',
  'invalidCheckMode',
  'invalidCustomFields',
  'dependencyCycle',
  'dependencyNotFound',
  'dependencyNotShared',
  'tooManyDependencies',
  'endTimeBeforeStartTime',
  'invalidWindow',
  'missingTargetId',
  'invalidServiceLevelObjective',
  'ssoIssuerInvalid',
  'ssoDomainInvalid',
  'ssoDomainTaken',
  'ssoGroupRoleInvalid',
  'ssoBreakGlassRequired',
] as const satisfies readonly ErrorCode[];

export const FIELD_ERROR_SET: ReadonlySet<ErrorCode> = new Set(FIELD_ERROR_CODES);
