import { domainToASCII } from 'node:url';
import { z } from 'zod';
import 'zod-openapi';

/** Field schemas shared by the tenancy routers. */
export const Timestamp = z.iso.datetime();
export const Email = z.email().max(254);
export const Label = z.string().trim().min(1).max(200);
export const OptionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** Phone numbers keep digits and a leading +; separators (spaces, dashes, dots, parentheses) are dropped. */
export const PhoneNumber = z
  .string()
  .max(40)
  .transform((value) => value.replace(/[\s().\-/]/g, ''))
  .refine((value) => /^\+?\d{5,15}$/.test(value), 'Must be a phone number such as +49 30 1234567');

/** A path or query reference: public id (uuid) or legacy integer id. */
export const Ref = z.string().trim().min(1).max(64).meta({ description: 'Public id (uuid) or legacy integer id' });
export const IdParams = z.object({ id: Ref });

/** Sent timestamps: ISO 8601 with an offset, or a date (midnight UTC). */
export const DateInput = z.union([z.iso.datetime({ offset: true }), z.iso.date()]).transform((value) => new Date(value));

/** International domain names are accepted and stored as punycode; validation is the domain's. */
export const DomainNameInput = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .transform((value) => domainToASCII(value.toLowerCase()) || value);

export const SearchQuery = z
  .string()
  .max(200)
  .transform((value) => value.replace(/[\u0000-\u001f\u007f]/g, ''))
  .optional()
  .meta({ description: 'Case-insensitive substring of the name or address, or of the label' });

export const SuccessSchema = z.object({ success: z.literal(true) });
