import { z } from 'zod';
import 'zod-openapi';
import { isTimeZone } from '../../../domain/on-call/wall-clock';

/** The fields the on-call schemas share. */
export const Instant = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .meta({ description: 'ISO 8601 date-time with Z or an offset' });
export const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone such as Europe/Berlin')
  .meta({ description: "IANA time zone the layers' hand-off times and restrictions are read in (default UTC)", example: 'Europe/Berlin' });
export const Ref = z.string().trim().min(1).max(64);
export const UserRef = Ref.meta({ description: 'A user id of the organization (userNotFound otherwise)' });
export const Clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm, 00:00 to 23:59');
export const Name = z.string().trim().min(1).max(200);
export const Description = z.string().trim().max(2000).nullable();
