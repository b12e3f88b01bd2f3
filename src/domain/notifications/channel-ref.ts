import { AppError } from '../shared/app-error';
import type { ErrorCode } from '../shared/error-codes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT = /^[1-9]\d{0,9}$/;

/** A usable channel reference: a positive integer id or a public id (uuid). */
export function isChannelRef(value: string): boolean {
  return (INT.test(value) && Number(value) <= 2_147_483_647) || UUID.test(value);
}

/**
 * The reference a request gives, checked: missing or blank answers `required`, anything but an
 * id or a public id answers `invalid` (channelIdRequired/invalidChannelId, or the sourceChannelId pair).
 */
export function channelRef(value: unknown, codes: { required: ErrorCode; invalid: ErrorCode }): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) throw new AppError(codes.required);
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || !isChannelRef(text)) throw new AppError(codes.invalid);
  return text;
}

export const CHANNEL_ID = { required: 'channelIdRequired', invalid: 'invalidChannelId' } as const;
export const SOURCE_CHANNEL_ID = { required: 'sourceChannelIdRequired', invalid: 'invalidSourceChannelId' } as const;
