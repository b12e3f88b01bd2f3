import { z } from 'zod';
import 'zod-openapi';
import { ACTION_NAMES, RESOURCES } from '../../../domain/identity/permissions';

const verbsOf = (resource: string) =>
  ACTION_NAMES.filter((action) => action.startsWith(`${resource}.`)).map((action) => action.slice(resource.length + 1));

/**
 * `can` of the session: per resource, per act, whether the role gates let the caller take it. Generated
 * from the one table the use cases enforce (domain/identity/permissions.ts), so it cannot drift.
 */
export const PermissionsSchema = z
  .object(
    Object.fromEntries(
      RESOURCES.map((resource) => [resource, z.object(Object.fromEntries(verbsOf(resource).map((verb) => [verb, z.boolean()])))]),
    ),
  )
  .meta({
    id: 'Permissions',
    description:
      "What the caller's role lets it do, per resource (`monitor.delete`): the same rules the API enforces. A true act may still be refused " +
      'for the record itself (a managed monitor for a customer-bound caller, a resolved incident); a false one is always refused (403).',
  });
