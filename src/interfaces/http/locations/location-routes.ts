import type { ErrorCode } from '../../../domain/shared/error-codes';
import type { ListLocations } from '../../../application/locations/list-locations';
import type { GetLocation } from '../../../application/locations/get-location';
import type { CreateLocation } from '../../../application/locations/create-location';
import type { UpdateLocation } from '../../../application/locations/update-location';
import type { DeleteLocation } from '../../../application/locations/delete-location';
import type { ListProbeKeys } from '../../../application/locations/list-probe-keys';
import type { CreateProbeKey } from '../../../application/locations/create-probe-key';
import type { RevokeProbeKey } from '../../../application/locations/revoke-probe-key';
import type { ListProbes } from '../../../application/locations/list-probes';
import type { LocationRealm } from '../../../application/locations/location-access';
import type { ApiRouter } from '../shared/api-router';
import type { ApiTag } from '../shared/api-tags';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';
import { presentIssuedProbeKey, presentLocation, presentProbe, presentProbeKey } from './presenters';
import {
  CodeParams,
  CreateLocationBody,
  CreateProbeKeyBody,
  DeletedLocationSchema,
  IssuedProbeKeySchema,
  KeyParams,
  LocationSchema,
  ProbeKeySchema,
  ProbeSchema,
  UpdateLocationBody,
} from './schemas';

/** The use cases both location APIs call, each with the realm of the API. */
export interface LocationUseCases {
  listLocations: ListLocations;
  getLocation: GetLocation;
  createLocation: CreateLocation;
  updateLocation: UpdateLocation;
  deleteLocation: DeleteLocation;
  listProbeKeys: ListProbeKeys;
  createProbeKey: CreateProbeKey;
  revokeProbeKey: RevokeProbeKey;
  listProbes: ListProbes;
}

/** How one realm's API is named and documented. */
export interface LocationApi {
  readonly realm: LocationRealm;
  readonly base: string;
  readonly tags: readonly [ApiTag];
  /** operationIds: `list${noun}s`, `get${noun}`, ... (`Location` or `AdminLocation`). */
  readonly noun: string;
  readonly schemaPrefix: string;
  /** Who reads (and the codes refusing the others). */
  readonly readers: { note: string; errors: ErrorCode[] };
  /** Who changes locations, and the codes refusing the others. */
  readonly writers: { note: string; errors: ErrorCode[] };
  /** Whose keys and probes are visible. */
  readonly inspect: string;
  readonly created: string;
}

const LIVE =
  '`status` is `live` while a check process or probe serving the location holds a live lease (probes renew theirs as they ' +
  'report), else `unknown`; `lastSeenAt` is the latest report of its probes.';

/** Registers the location routes of one realm (/api/locations or /api/admin/locations) on `router`. */
export function locationRoutes(router: ApiRouter, use: LocationUseCases, api: LocationApi): ApiRouter {
  const { realm, base, tags, noun } = api;
  const one = `${base}/{code}`;
  const notFound: ErrorCode[] = ['locationNotFound'];
  return router
    .route({
      operationId: `list${noun}s`,
      method: 'get',
      path: base,
      tags,
      summary: 'List locations',
      description: `Configured locations first (in configuration order), then the others by code. ${LIVE} ${api.readers.note}`,
      query: PageOnlyQuery,
      response: pagedSchema(LocationSchema, `${api.schemaPrefix}LocationPage`),
      errors: api.readers.errors,
      handler: async ({ actor, query }) => pageOf((await use.listLocations.execute(actor, { realm })).map(presentLocation), query),
    })
    .route({
      operationId: `create${noun}`,
      method: 'post',
      path: base,
      tags,
      summary: `Create a ${realm === 'platform' ? 'platform' : 'private'} location`,
      description:
        `${api.created} It is \`unknown\` until a probe holding one of its keys reports: issue a key next ` +
        `(POST ${one}/keys). ${api.writers.note}`,
      body: CreateLocationBody,
      response: LocationSchema,
      status: 201,
      errors: ['locationCodeTaken', ...api.writers.errors],
      handler: async ({ actor, body }) => presentLocation(await use.createLocation.execute(actor, { realm, ...body })),
    })
    .route({
      operationId: `get${noun}`,
      method: 'get',
      path: one,
      tags,
      summary: 'Get a location with its live status',
      description: `${LIVE} ${api.readers.note}`,
      params: CodeParams,
      response: LocationSchema,
      errors: [...notFound, ...api.readers.errors],
      handler: async ({ actor, params }) => presentLocation(await use.getLocation.execute(actor, { realm, code: params.code })),
    })
    .route({
      operationId: `update${noun}`,
      method: 'patch',
      path: one,
      tags,
      summary: 'Rename a location',
      description: `The code never changes (monitors list it). ${api.writers.note}`,
      params: CodeParams,
      body: UpdateLocationBody,
      response: LocationSchema,
      errors: [...notFound, 'locationConfigured', ...api.writers.errors],
      handler: async ({ actor, params, body }) =>
        presentLocation(await use.updateLocation.execute(actor, { realm, code: params.code, name: body.name })),
    })
    .route({
      operationId: `delete${noun}`,
      method: 'delete',
      path: one,
      tags,
      summary: 'Delete a location',
      description:
        'Its keys and probe records go with it; its probes are refused from then on. While monitors list its code the answer ' +
        `is 409 locationInUse with data.location and data.monitors, how many: take the location out of them first. ${api.writers.note}`,
      params: CodeParams,
      response: DeletedLocationSchema,
      errors: [...notFound, 'locationInUse', 'locationConfigured', ...api.writers.errors],
      handler: async ({ actor, params }) => ({
        success: true as const,
        code: (await use.deleteLocation.execute(actor, { realm, code: params.code })).code,
      }),
    })
    .route({
      operationId: `list${noun}Keys`,
      method: 'get',
      path: `${one}/keys`,
      tags,
      summary: 'List probe keys',
      description: `Newest first, revoked ones included; the secret itself is never shown again, only its prefix. ${api.inspect}`,
      params: CodeParams,
      query: PageOnlyQuery,
      response: pagedSchema(ProbeKeySchema, `${api.schemaPrefix}ProbeKeyPage`),
      errors: [...notFound, 'locationConfigured', ...api.readers.errors],
      handler: async ({ actor, params, query }) =>
        pageOf((await use.listProbeKeys.execute(actor, { realm, code: params.code })).map(presentProbeKey), query),
    })
    .route({
      operationId: `create${noun}Key`,
      method: 'post',
      path: `${one}/keys`,
      tags,
      summary: 'Issue a probe key',
      description:
        'Answers the secret (`secret`) this once; the service keeps its SHA-256 digest and prefix. Run a probe with ' +
        '`PROBE_SERVER_URL` and `PROBE_KEY` set to it. The location may hold several live keys: to replace one, issue the new ' +
        `key, move the probes to it, then revoke the old one. ${api.writers.note}`,
      params: CodeParams,
      body: CreateProbeKeyBody,
      response: IssuedProbeKeySchema,
      status: 201,
      errors: [...notFound, 'locationConfigured', ...api.writers.errors],
      handler: async ({ actor, params, body }) =>
        presentIssuedProbeKey(await use.createProbeKey.execute(actor, { realm, code: params.code, name: body.name })),
    })
    .route({
      operationId: `revoke${noun}Key`,
      method: 'delete',
      path: `${one}/keys/{keyId}`,
      tags,
      summary: 'Revoke a probe key',
      description:
        'Probes presenting it are refused from their next request on. Final: a revoked key never works again; revoking it ' +
        `again answers it as it is. A key of another location answers 404 probeKeyNotFound. ${api.writers.note}`,
      params: KeyParams,
      response: ProbeKeySchema,
      errors: [...notFound, 'probeKeyNotFound', 'locationConfigured', ...api.writers.errors],
      handler: async ({ actor, params }) =>
        presentProbeKey(await use.revokeProbeKey.execute(actor, { realm, code: params.code, keyId: params.keyId })),
    })
    .route({
      operationId: `list${noun}Probes`,
      method: 'get',
      path: `${one}/probes`,
      tags,
      summary: 'Probe processes of a location and their status',
      description:
        'Each probe process that reported with one of its keys, most recently seen first, as of its last report: ' +
        `monitors held, checks per second, lag, results buffered on its disk and dropped; \`live\` while its lease holds. ${api.inspect}`,
      params: CodeParams,
      query: PageOnlyQuery,
      response: pagedSchema(ProbeSchema, `${api.schemaPrefix}ProbePage`),
      errors: [...notFound, 'locationConfigured', ...api.readers.errors],
      handler: async ({ actor, params, query }) =>
        pageOf((await use.listProbes.execute(actor, { realm, code: params.code })).map(presentProbe), query),
    });
}
