import { AppError } from '../shared/app-error';

/** Website check configuration (spec: Resources > Website check configuration). */
export interface CheckConfig {
  checkSslEnabled: boolean;
  checkHttpsRedirectEnabled: boolean;
  checkStatusEnabled: boolean;
  checkSizeEnabled: boolean;
  checkResponseTimeEnabled: boolean;
  checkKeywordEnabled: boolean;
  checkDomainExpiryEnabled: boolean;
  /** Bytes; null = no lower bound. */
  minPageSize: number | null;
  /** Bytes; null = no upper bound. */
  maxPageSize: number | null;
  /** Days before certificate expiry to warn, 1-365. */
  sslNoticeDays: number;
}

export const CHECK_TOGGLES = [
  'checkSslEnabled',
  'checkHttpsRedirectEnabled',
  'checkStatusEnabled',
  'checkSizeEnabled',
  'checkResponseTimeEnabled',
  'checkKeywordEnabled',
  'checkDomainExpiryEnabled',
] as const;
export const CHECK_CONFIG_FIELDS = [...CHECK_TOGGLES, 'minPageSize', 'maxPageSize', 'sslNoticeDays'] as const;
export const MAX_SSL_NOTICE_DAYS = 365;

export const DEFAULT_CHECK_CONFIG: CheckConfig = {
  checkSslEnabled: true,
  checkHttpsRedirectEnabled: false,
  checkStatusEnabled: true,
  checkSizeEnabled: false,
  checkResponseTimeEnabled: false,
  checkKeywordEnabled: false,
  checkDomainExpiryEnabled: false,
  minPageSize: null,
  maxPageSize: null,
  sslNoticeDays: 14,
};

const invalid = (field: string, reason: string) => new AppError('invalidCheckConfig', { field, reason });
const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Applies the check fields present in `patch` over `current`: toggles are booleans, page sizes
 * integers >= 0 (or null), minPageSize <= maxPageSize after the merge, sslNoticeDays 1-365.
 * Anything else answers invalidCheckConfig naming the field.
 */
export function applyCheckConfig(current: CheckConfig, patch: Record<string, unknown>): CheckConfig {
  const next: CheckConfig = { ...current };
  for (const toggle of CHECK_TOGGLES) {
    if (patch[toggle] === undefined) continue;
    if (typeof patch[toggle] !== 'boolean') throw invalid(toggle, 'must be a boolean');
    next[toggle] = patch[toggle];
  }
  for (const size of ['minPageSize', 'maxPageSize'] as const) {
    const value = patch[size];
    if (value === undefined) continue;
    if (value !== null && (!isInt(value) || value < 0)) throw invalid(size, 'must be an integer of at least 0');
    next[size] = value;
  }
  if (patch.sslNoticeDays !== undefined) {
    const days = patch.sslNoticeDays;
    if (!isInt(days) || days < 1 || days > MAX_SSL_NOTICE_DAYS) throw invalid('sslNoticeDays', 'must be an integer from 1 to 365');
    next.sslNoticeDays = days;
  }
  if (next.minPageSize !== null && next.maxPageSize !== null && next.minPageSize > next.maxPageSize) {
    throw invalid('minPageSize', 'must not exceed maxPageSize');
  }
  return next;
}

export const pickCheckConfig = (source: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(CHECK_CONFIG_FIELDS.filter((f) => source[f] !== undefined).map((f) => [f, source[f]]));
