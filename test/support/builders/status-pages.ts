import { BuildPublicStatusPage } from '../../../src/application/status-pages/build-public-status-page';
import { GetPublicStatusPage } from '../../../src/application/status-pages/get-public-status-page';
import type { PageIncidentNotices } from '../../../src/application/status-pages/page-incident-notices';
import type { PageObjectives } from '../../../src/application/status-pages/ports';
import { AnnounceToSubscribers } from '../../../src/application/status-pages/announce-to-subscribers';
import { CreatePageIncident } from '../../../src/application/status-pages/create-page-incident';
import { CreateStatusPage, type NewStatusPageInput } from '../../../src/application/status-pages/create-status-page';
import { DeleteStatusPage } from '../../../src/application/status-pages/delete-status-page';
import { GetStatusPage } from '../../../src/application/status-pages/get-status-page';
import { ListPageIncidents } from '../../../src/application/status-pages/list-page-incidents';
import { ListStatusPages } from '../../../src/application/status-pages/list-status-pages';
import { ManageSubscription } from '../../../src/application/status-pages/manage-subscription';
import { PageSubscribers } from '../../../src/application/status-pages/page-subscribers';
import { PostPageIncidentUpdate } from '../../../src/application/status-pages/post-page-incident-update';
import { SignInToStatusPage } from '../../../src/application/status-pages/sign-in-to-status-page';
import { SubscribeToStatusPage } from '../../../src/application/status-pages/subscribe-to-status-page';
import { SubscriberNotices } from '../../../src/application/status-pages/subscriber-notices';
import { UpdateStatusPage } from '../../../src/application/status-pages/update-status-page';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { anActor } from '../builders';
import { ManualClock } from '../manual-clock';
import { FakeRateLimiter, immediateTransactions, sequentialIds } from '../fakes/shared-fakes';
import { FakeMaintenanceWindows, FakeRecurrence } from '../fakes/maintenance-fakes';
import { FakeDirectDeliveries } from '../fakes/notifications-fakes';
import {
  fakeAccessTokens,
  FakeComponentCatalog,
  FakePageEventFeed,
  FakePageIncidents,
  FakeStatusPageReadings,
  FakeStatusPages,
  FakeSubscribers,
} from '../fakes/status-pages-fakes';

/** The base address the subscriber messages link to. */
export const STATUS_PAGE_LINKS = { publicBaseUrl: 'https://status.example' };

/** A password hasher a test can read: `hashed:<password>`. */
export const readableHasher = {
  hash: async (p: string) => `hashed:${p}`,
  verify: async (h: string, p: string) => h === `hashed:${p}`,
};

/** A new page's input: "Acme" at `acme`, no password, one group "All" of monitor m-7, unless told otherwise. */
export function aStatusPageInput(overrides: Partial<NewStatusPageInput> = {}): NewStatusPageInput {
  return {
    title: 'Acme',
    slug: 'acme',
    description: null,
    logo: null,
    brandColor: '#000000',
    showResponseTimes: false,
    footer: null,
    ipAllowlist: [],
    customerId: null,
    password: null,
    groups: [{ name: 'All', components: [{ type: 'monitor', id: 'm-7' }] }],
    ...overrides,
  };
}

export interface StatusPagesWorldOptions {
  /** The clock's start (2026-06-01T12:00:00Z). */
  readonly now?: Date | string;
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
  /** What the rate limiter tells a caller it refuses to wait (42 seconds). */
  readonly retryAfter?: number;
  /** How long a public page's model is served from the cache (5 seconds), and how many it keeps (10). */
  readonly refreshMs?: number;
  readonly maxEntries?: number;
  /** The objectives a page can show (none). */
  readonly objectives?: PageObjectives;
  /** Who tells the subscribers of a page incident (the subscriber notices over the direct deliveries). */
  readonly notices?: PageIncidentNotices;
}

/**
 * The status-pages context on its fakes, wired as the composition root wires it: pages, the
 * component catalog (empty: add monitors with `monitor`, anything else on `catalog`), readings,
 * page incidents, subscribers, the event feed, maintenance windows, direct deliveries and the rate
 * limiter, and every use case over them. `aPage` creates a page as a given (on a runner of its own,
 * so a recorded `tx` holds only the use cases' transactions).
 */
export function aStatusPagesWorld(options: StatusPagesWorldOptions = {}) {
  const clock = new ManualClock(options.now ?? '2026-06-01T12:00:00Z');
  const tx = options.tx ?? immediateTransactions;
  const ids = sequentialIds();
  const hasher = readableHasher;
  const links = STATUS_PAGE_LINKS;
  const pages = new FakeStatusPages();
  const catalog = new FakeComponentCatalog();
  const readings = new FakeStatusPageReadings();
  const incidents = new FakePageIncidents();
  const subscribers = new FakeSubscribers();
  const feed = new FakePageEventFeed();
  const windows = new FakeMaintenanceWindows();
  const deliveries = new FakeDirectDeliveries();
  const limiter = new FakeRateLimiter(options.retryAfter);
  const notices = options.notices ?? new SubscriberNotices(subscribers, deliveries, links, clock);
  const expander = new FakeRecurrence();
  const build = new BuildPublicStatusPage(catalog, readings, incidents, windows, expander, options.objectives);
  const givenPages = new CreateStatusPage(pages, catalog, hasher, ids, clock, immediateTransactions, options.objectives);
  const world = {
    clock,
    tx,
    ids,
    pages,
    catalog,
    readings,
    incidents,
    subscribers,
    feed,
    windows,
    deliveries,
    limiter,
    notices,
    expander,
    build,
    visit: new GetPublicStatusPage(pages, readings, build, fakeAccessTokens, clock, {
      refreshMs: options.refreshMs ?? 5_000,
      maxEntries: options.maxEntries ?? 10,
    }),
    createPage: new CreateStatusPage(pages, catalog, hasher, ids, clock, tx, options.objectives),
    updatePage: new UpdateStatusPage(pages, catalog, hasher, ids, clock, tx),
    removePage: new DeleteStatusPage(pages, tx),
    getPage: new GetStatusPage(pages),
    listPages: new ListStatusPages(pages),
    createIncident: new CreatePageIncident(pages, incidents, readings, catalog, notices, tx, ids, clock),
    postUpdate: new PostPageIncidentUpdate(pages, incidents, catalog, notices, tx, clock),
    listIncidents: new ListPageIncidents(pages, incidents, catalog, clock),
    subscribe: new SubscribeToStatusPage(pages, subscribers, catalog, fakeAccessTokens, deliveries, tx, ids, links, clock, limiter),
    manage: new ManageSubscription(pages, subscribers, clock, tx),
    editors: new PageSubscribers(pages, subscribers, catalog, deliveries, tx, ids, links, clock),
    announce: new AnnounceToSubscribers(feed, pages, catalog, windows, subscribers, deliveries, tx, links, clock),
    signIn: new SignInToStatusPage(pages, hasher, fakeAccessTokens, clock, limiter),
    /** Monitor `m-<id>` of customer 3 in organization 1, named `name`, in the catalog. */
    monitor(id: number, name: string) {
      catalog.add(1, { type: 'monitor', id, publicId: `m-${id}`, customerId: 3, name });
      return world;
    },
    /** A page "Acme" at `slug` of organization 1, no password, one group "All" of monitor m-7 unless told otherwise. */
    aPage(slug = 'acme', overrides: Partial<NewStatusPageInput> = {}) {
      return givenPages.execute(anActor().build(), aStatusPageInput({ slug, ...overrides }));
    },
  };
  return world;
}

export type StatusPagesWorld = ReturnType<typeof aStatusPagesWorld>;

/** The group "All" of monitors m-7 and m-8 (the pages the subscriber tests follow). */
export const SHOP_AND_BLOG = [
  {
    name: 'All',
    components: [
      { type: 'monitor' as const, id: 'm-7' },
      { type: 'monitor' as const, id: 'm-8' },
    ],
  },
];
