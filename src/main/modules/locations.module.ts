import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { SECRET_TOKENS } from '../../application/identity/ports';
import {
  CONFIGURED_LOCATIONS,
  LOCATION_CATALOGUE,
  LOCATION_REPOSITORY,
  LOCATION_STATUS_READER,
  PROBE_CREDENTIALS,
  PROBE_KEY_REPOSITORY,
} from '../../application/locations/ports';
import { LocationAccess } from '../../application/locations/location-access';
import { ListLocations } from '../../application/locations/list-locations';
import { GetLocation } from '../../application/locations/get-location';
import { CreateLocation } from '../../application/locations/create-location';
import { UpdateLocation } from '../../application/locations/update-location';
import { DeleteLocation } from '../../application/locations/delete-location';
import { ListProbeKeys } from '../../application/locations/list-probe-keys';
import { CreateProbeKey } from '../../application/locations/create-probe-key';
import { RevokeProbeKey } from '../../application/locations/revoke-probe-key';
import { ListProbes } from '../../application/locations/list-probes';
import { SqlLocationRepository } from '../../infrastructure/locations/sql-location.repository';
import { SqlProbeKeyRepository } from '../../infrastructure/locations/sql-probe-key.repository';
import { SqlLocationStatusReader } from '../../infrastructure/locations/sql-location-status.reader';
import { SqlProbeCredentials } from '../../infrastructure/locations/sql-probe-credentials';
import { SqlLocationCatalogue } from '../../infrastructure/locations/sql-location-catalogue';
import { locationsRouter } from '../../interfaces/http/locations/locations.router';
import { adminLocationsRouter } from '../../interfaces/http/locations/admin-locations.router';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import type { ContextModule } from './context-module';

/**
 * Locations: the configured catalogue (MONITOR_LOCATIONS), platform and private location rows with
 * their probe keys, and their live status. The probe API authenticates probes through
 * PROBE_CREDENTIALS; monitors check the locations they list against LOCATION_CATALOGUE.
 */
export const locationsModule = bindings(({ single }) => {
  single(CONFIGURED_LOCATIONS, (c) => ({ codes: c.get<AppConfig>(CONFIG).checkLocations }));
  single(LOCATION_REPOSITORY, (c) => new SqlLocationRepository(c.get(POOL_SQL)));
  single(PROBE_KEY_REPOSITORY, (c) => new SqlProbeKeyRepository(c.get(POOL_SQL)));
  single(LOCATION_STATUS_READER, (c) => new SqlLocationStatusReader(c.get(SQL)));
  single(PROBE_CREDENTIALS, (c) => new SqlProbeCredentials(c.get(SQL)));
  single(LOCATION_CATALOGUE, (c) => new SqlLocationCatalogue(c.get(SQL), c.get(CONFIGURED_LOCATIONS).codes));

  single(LocationAccess, (c) => new LocationAccess(c.get(LOCATION_REPOSITORY), c.get(CONFIGURED_LOCATIONS)));
  single(ListLocations, (c) => new ListLocations(c.get(LocationAccess), c.get(LOCATION_STATUS_READER), c.get(CLOCK)));
  single(GetLocation, (c) => new GetLocation(c.get(LocationAccess), c.get(LOCATION_STATUS_READER), c.get(CLOCK)));
  single(
    CreateLocation,
    (c) => new CreateLocation(c.get(LOCATION_REPOSITORY), c.get(LocationAccess), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(
    UpdateLocation,
    (c) =>
      new UpdateLocation(
        c.get(LOCATION_REPOSITORY),
        c.get(LocationAccess),
        c.get(LOCATION_STATUS_READER),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(DeleteLocation, (c) => new DeleteLocation(c.get(LOCATION_REPOSITORY), c.get(LocationAccess), c.get(TRANSACTION_RUNNER)));
  single(ListProbeKeys, (c) => new ListProbeKeys(c.get(PROBE_KEY_REPOSITORY), c.get(LocationAccess)));
  single(
    CreateProbeKey,
    (c) =>
      new CreateProbeKey(
        c.get(PROBE_KEY_REPOSITORY),
        c.get(LocationAccess),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    RevokeProbeKey,
    (c) => new RevokeProbeKey(c.get(PROBE_KEY_REPOSITORY), c.get(LocationAccess), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(ListProbes, (c) => new ListProbes(c.get(LocationAccess), c.get(LOCATION_STATUS_READER), c.get(CLOCK)));
});

export const locationsContext: ContextModule = {
  name: 'locations',
  bindings: locationsModule,
  routers: [locationsRouter, adminLocationsRouter],
};
