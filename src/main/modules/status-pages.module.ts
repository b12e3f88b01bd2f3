import { NOTIFICATION_TARGET_POLICY } from '../../application/notifications/ports';
import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import { PASSWORD_HASHER } from '../../application/identity/ports';
import { MAINTENANCE_WINDOW_REPOSITORY, RECURRENCE_EXPANDER } from '../../application/maintenance/ports';
import {
  COMPONENT_CATALOG,
  PAGE_ACCESS_TOKENS,
  PAGE_EVENT_FEED,
  PAGE_INCIDENT_REPOSITORY,
  PAGE_OBJECTIVES,
  STATUS_PAGE_READINGS,
  STATUS_PAGE_REPOSITORY,
  SUBSCRIBER_REPOSITORY,
} from '../../application/status-pages/ports';
import { DIRECT_DELIVERIES } from '../../application/notifications/ports';
import { SubscriberNotices } from '../../application/status-pages/subscriber-notices';
import type { SubscriberLinks } from '../../application/status-pages/subscriber-messages';
import { SubscribeToStatusPage } from '../../application/status-pages/subscribe-to-status-page';
import { ManageSubscription } from '../../application/status-pages/manage-subscription';
import { PageSubscribers } from '../../application/status-pages/page-subscribers';
import { AnnounceToSubscribers } from '../../application/status-pages/announce-to-subscribers';
import { SqlSubscriberRepository } from '../../infrastructure/status-pages/sql-subscriber.repository';
import { SqlPageEventFeed } from '../../infrastructure/status-pages/sql-page-event-feed';
import { PAGE_INCIDENT_NOTICES, type PageIncidentNotices } from '../../application/status-pages/page-incident-notices';
import { StatusPageViews } from '../../application/status-pages/page-view';
import { CreateStatusPage } from '../../application/status-pages/create-status-page';
import { ListStatusPages } from '../../application/status-pages/list-status-pages';
import { GetStatusPage } from '../../application/status-pages/get-status-page';
import { UpdateStatusPage } from '../../application/status-pages/update-status-page';
import { DeleteStatusPage } from '../../application/status-pages/delete-status-page';
import { CreatePageIncident } from '../../application/status-pages/create-page-incident';
import { PostPageIncidentUpdate } from '../../application/status-pages/post-page-incident-update';
import { ListPageIncidents } from '../../application/status-pages/list-page-incidents';
import { BuildPublicStatusPage } from '../../application/status-pages/build-public-status-page';
import { GetPublicStatusPage } from '../../application/status-pages/get-public-status-page';
import { SignInToStatusPage } from '../../application/status-pages/sign-in-to-status-page';
import { SqlStatusPageRepository } from '../../infrastructure/status-pages/sql-status-page.repository';
import { SqlComponentCatalog } from '../../infrastructure/status-pages/sql-component-catalog';
import { SqlStatusPageReadings } from '../../infrastructure/status-pages/sql-status-page-readings';
import { SqlPageIncidentRepository } from '../../infrastructure/status-pages/sql-page-incident.repository';
import { HmacPageAccessTokens } from '../../infrastructure/status-pages/hmac-page-access-tokens';
import { STATUS_PAGE_HTTP_SETTINGS, type StatusPageHttpSettings } from '../../interfaces/http/status-pages/settings';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, LOGGER, SQL } from '../tokens';
import { logRefused } from '../../infrastructure/event-catalogue/refused';
import { bindings, type Ctx } from './bindings';
import { statusPagesRouter } from '../../interfaces/http/status-pages/status-pages.router';
import { statusPageSubscribersRouter } from '../../interfaces/http/status-pages/status-page-subscribers.router';
import { publicStatusPagesRouter } from '../../interfaces/http/status-pages/public-status-pages.router';
import { statusPageSubscribersJob } from '../../interfaces/jobs/status-page-subscribers.job';
import type { ContextModule } from './context-module';

/** A visitor who gave a private page's password reads it this long without giving it again. */
const ACCESS_LIFETIME_MS = 7 * 86_400_000;

/** Status pages: their API, the public pages (built once per change), incident communication and subscribers. */
export const statusPagesModule = bindings(({ single }) => {
  single(STATUS_PAGE_HTTP_SETTINGS, (c): StatusPageHttpSettings => {
    const config = c.get<AppConfig>(CONFIG);
    return {
      publicBaseUrl: config.publicBaseUrl,
      secureCookies: config.publicBaseUrl.startsWith('https://'),
      maxAgeSeconds: Math.max(1, Math.round(config.statusPages.refreshMs / 1000)),
    };
  });
  single(STATUS_PAGE_REPOSITORY, (c) => new SqlStatusPageRepository(c.get(POOL_SQL)));
  single(COMPONENT_CATALOG, (c) => new SqlComponentCatalog(c.get(POOL_SQL)));
  single(STATUS_PAGE_READINGS, (c) => new SqlStatusPageReadings(c.get(SQL)));
  single(PAGE_INCIDENT_REPOSITORY, (c) => new SqlPageIncidentRepository(c.get(POOL_SQL)));
  single(PAGE_ACCESS_TOKENS, () => new HmacPageAccessTokens(ACCESS_LIFETIME_MS));
  single(SUBSCRIBER_REPOSITORY, (c) => new SqlSubscriberRepository(c.get(POOL_SQL)));
  single(PAGE_EVENT_FEED, (c) => new SqlPageEventFeed(c.get(POOL_SQL), logRefused(c.get(LOGGER))));
  const links = (c: Ctx): SubscriberLinks => ({ publicBaseUrl: c.get<AppConfig>(CONFIG).publicBaseUrl });
  single(
    PAGE_INCIDENT_NOTICES,
    (c): PageIncidentNotices => new SubscriberNotices(c.get(SUBSCRIBER_REPOSITORY), c.get(DIRECT_DELIVERIES), links(c), c.get(CLOCK)),
  );
  single(
    SubscribeToStatusPage,
    (c) =>
      new SubscribeToStatusPage(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(SUBSCRIBER_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(PAGE_ACCESS_TOKENS),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        links(c),
        c.get(CLOCK),
        c.get(RATE_LIMITER),
      ),
  );
  single(
    ManageSubscription,
    (c) => new ManageSubscription(c.get(STATUS_PAGE_REPOSITORY), c.get(SUBSCRIBER_REPOSITORY), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(
    PageSubscribers,
    (c) =>
      new PageSubscribers(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(SUBSCRIBER_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        links(c),
        c.get(CLOCK),
        c.get(NOTIFICATION_TARGET_POLICY),
      ),
  );
  single(
    AnnounceToSubscribers,
    (c) =>
      new AnnounceToSubscribers(
        c.get(PAGE_EVENT_FEED),
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(SUBSCRIBER_REPOSITORY),
        c.get(DIRECT_DELIVERIES),
        c.get(TRANSACTION_RUNNER),
        links(c),
        c.get(CLOCK),
      ),
  );

  single(StatusPageViews, (c) => new StatusPageViews(c.get(COMPONENT_CATALOG), c.get(PAGE_OBJECTIVES)));
  single(
    CreateStatusPage,
    (c) =>
      new CreateStatusPage(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(PASSWORD_HASHER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
        c.get(PAGE_OBJECTIVES),
      ),
  );
  single(ListStatusPages, (c) => new ListStatusPages(c.get(STATUS_PAGE_REPOSITORY)));
  single(GetStatusPage, (c) => new GetStatusPage(c.get(STATUS_PAGE_REPOSITORY)));
  single(
    UpdateStatusPage,
    (c) =>
      new UpdateStatusPage(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(PASSWORD_HASHER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
        c.get(PAGE_OBJECTIVES),
      ),
  );
  single(DeleteStatusPage, (c) => new DeleteStatusPage(c.get(STATUS_PAGE_REPOSITORY), c.get(TRANSACTION_RUNNER)));
  single(
    CreatePageIncident,
    (c) =>
      new CreatePageIncident(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(PAGE_INCIDENT_REPOSITORY),
        c.get(STATUS_PAGE_READINGS),
        c.get(COMPONENT_CATALOG),
        c.get(PAGE_INCIDENT_NOTICES),
        c.get(TRANSACTION_RUNNER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(
    PostPageIncidentUpdate,
    (c) =>
      new PostPageIncidentUpdate(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(PAGE_INCIDENT_REPOSITORY),
        c.get(COMPONENT_CATALOG),
        c.get(PAGE_INCIDENT_NOTICES),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
  single(
    ListPageIncidents,
    (c) => new ListPageIncidents(c.get(STATUS_PAGE_REPOSITORY), c.get(PAGE_INCIDENT_REPOSITORY), c.get(COMPONENT_CATALOG), c.get(CLOCK)),
  );
  single(
    BuildPublicStatusPage,
    (c) =>
      new BuildPublicStatusPage(
        c.get(COMPONENT_CATALOG),
        c.get(STATUS_PAGE_READINGS),
        c.get(PAGE_INCIDENT_REPOSITORY),
        c.get(MAINTENANCE_WINDOW_REPOSITORY),
        c.get(RECURRENCE_EXPANDER),
        c.get(PAGE_OBJECTIVES),
      ),
  );
  single(
    GetPublicStatusPage,
    (c) =>
      new GetPublicStatusPage(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(STATUS_PAGE_READINGS),
        c.get(BuildPublicStatusPage),
        c.get(PAGE_ACCESS_TOKENS),
        c.get(CLOCK),
        { refreshMs: c.get<AppConfig>(CONFIG).statusPages.refreshMs, maxEntries: 1000 },
      ),
  );
  single(
    SignInToStatusPage,
    (c) =>
      new SignInToStatusPage(
        c.get(STATUS_PAGE_REPOSITORY),
        c.get(PASSWORD_HASHER),
        c.get(PAGE_ACCESS_TOKENS),
        c.get(CLOCK),
        c.get(RATE_LIMITER),
      ),
  );
});

export const statusPagesContext: ContextModule = {
  name: 'status-pages',
  bindings: statusPagesModule,
  routers: [statusPagesRouter, statusPageSubscribersRouter, publicStatusPagesRouter],
  jobs: [statusPageSubscribersJob],
};
