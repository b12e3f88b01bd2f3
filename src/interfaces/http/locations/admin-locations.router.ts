import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { locationRoutes } from './location-routes';
import { LOCATION_USE_CASES } from './locations.router';

const STAFF =
  'Platform admins and supporters, signed in (not with a token), read every location, private ones included; anyone else ' +
  'answers 403 platformAdminRequired.';

/** /api/admin/locations: platform locations, managed by the platform admin; a read-only view of private ones. */
export const adminLocationsRouter = defineRouter(
  LOCATION_USE_CASES,
  (deps, use) =>
    locationRoutes(new ApiRouter(deps), use, {
      realm: 'platform',
      base: '/api/admin/locations',
      tags: ['Platform administration'],
      noun: 'AdminLocation',
      schemaPrefix: 'Admin',
      readers: { note: STAFF, errors: ['platformAdminRequired', 'customerScopedTokenForbidden'] },
      writers: {
        note:
          'Platform admins, signed in, change platform locations (else 403 platformAdminRequired); private locations are ' +
          "their organization's to change (403 roleForbidden), configured ones the configuration's (409 locationConfigured).",
        errors: ['platformAdminRequired', 'roleForbidden', 'customerScopedTokenForbidden'],
      },
      inspect: `${STAFF} Configured locations have no keys or probes (409 locationConfigured).`,
      created: 'A platform location: every organization sees it and its monitors may list it (it is not a default location).',
    }).router,
);
