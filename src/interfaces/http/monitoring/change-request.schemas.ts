import { z } from 'zod';
import { CHANGE_REQUEST_ACTIONS } from '../../../domain/monitoring/change-request';

/** Write-only secrets a PATCH may carry: never part of a change request, which is stored and shown in clear. */
const SECRET_FIELDS = ['credentials', 'secrets'] as const;

/** A change request body: the PATCH it proposes (credentials and API chain secrets excluded: requests are stored in clear). */
export function changeRequestBody(patch: z.ZodObject, id: string) {
  const present = SECRET_FIELDS.filter((field) => field in patch.shape);
  const changes = present.length > 0 ? patch.omit(Object.fromEntries(present.map((f) => [f, true])) as never) : patch;
  return z
    .object({
      action: z.enum(CHANGE_REQUEST_ACTIONS).default('update').meta({ description: 'update (apply `changes`) or delete the monitor' }),
      changes: changes.optional().meta({ description: 'Required for update: the fields a PATCH would send' }),
      note: z.string().trim().max(2000).nullable().optional(),
    })
    .strict()
    .meta({ id });
}

export const CHANGE_REQUEST_ERRORS = [
  'authorizingUserUnresolved',
  'tooManyOpenRequests',
  'roleForbidden',
  'invalidCheckInterval',
  'checkIntervalTooHigh',
  'checkIntervalTooLow',
  'invalidTimeout',
  'invalidCheckConfig',
  'invalidUrl',
  'connectHostInvalid',
  'connectHostNotPublic',
  'connectTlsInsecureWithoutHost',
] as const;

export const CHANGE_REQUEST_DESCRIPTION =
  'Customer-scoped callers propose changes to managed monitors here (they cannot PATCH or ' +
  'DELETE them without canEditManaged). An update is validated like the PATCH it stands for, so the same codes apply. ' +
  'At most 10 requests per customer may be open; the 11th answers 429 tooManyOpenRequests with data.retryAfter = 3600 ' +
  '(requests close when the organization settles them, which has no fixed schedule; an hour is a polite interval, or ' +
  'cancel one of your own with PATCH /api/change-requests/{id} status cancelled). Agent callers need a resolvable ' +
  'authorizing user (authorizingUserUnresolved).';
