import { ListLocations } from '../../../application/locations/list-locations';
import { GetLocation } from '../../../application/locations/get-location';
import { CreateLocation } from '../../../application/locations/create-location';
import { UpdateLocation } from '../../../application/locations/update-location';
import { DeleteLocation } from '../../../application/locations/delete-location';
import { ListProbeKeys } from '../../../application/locations/list-probe-keys';
import { CreateProbeKey } from '../../../application/locations/create-probe-key';
import { RevokeProbeKey } from '../../../application/locations/revoke-probe-key';
import { ListProbes } from '../../../application/locations/list-probes';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { locationRoutes } from './location-routes';

/** The use cases of both location routers. */
export const LOCATION_USE_CASES = {
  listLocations: ListLocations,
  getLocation: GetLocation,
  createLocation: CreateLocation,
  updateLocation: UpdateLocation,
  deleteLocation: DeleteLocation,
  listProbeKeys: ListProbeKeys,
  createProbeKey: CreateProbeKey,
  revokeProbeKey: RevokeProbeKey,
  listProbes: ListProbes,
};

const SCOPE =
  "Another organization's private location answers 404 locationNotFound, as a missing one does. Every role of the " +
  'organization reads (customer-bound callers included).';

/** /api/locations: the organization's view (the catalogue, platform locations and its private ones) and its private locations' admin. */
export const locationsRouter = defineRouter(
  LOCATION_USE_CASES,
  (deps, use) =>
    locationRoutes(new ApiRouter(deps), use, {
      realm: 'organization',
      base: '/api/locations',
      tags: ['Locations'],
      noun: 'Location',
      schemaPrefix: '',
      readers: { note: SCOPE, errors: [] },
      writers: {
        note:
          `Organization admins (sessions or their API tokens) change private locations; other roles answer 403 roleForbidden, ` +
          `platform locations 403 platformAdminRequired (the platform admin manages them under /api/admin/locations). ${SCOPE}`,
        errors: ['roleForbidden', 'platformAdminRequired'],
      },
      inspect: `The keys and probes of platform locations are not shown to organizations (404 locationNotFound). ${SCOPE}`,
      created:
        "A private location of the caller's organization: only its monitors may list the code (another organization's " +
        'monitors are refused as for an unknown location), and it is never a default location of new monitors.',
    }).router,
);
