import { AppError } from '../../domain/shared/app-error';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { Clock } from '../shared/clock';
import type { PageAccessTokens, StatusPageReadings, StatusPageRepository } from './ports';
import type { BuildPublicStatusPage } from './build-public-status-page';
import type { PublicStatusPage } from './public-status-page';

/** Which page: by slug (/status/{slug}) or by id (a custom domain's page). */
export type PublicPageRef = { slug: string } | { pageId: number };

export interface Visitor {
  readonly ip: string | undefined;
  /** The access cookie of a private page, if the visitor sent one. */
  readonly accessToken: string | undefined;
}

export type PublicPageAnswer =
  | { kind: 'page'; model: PublicStatusPage }
  /** The page has a password and the visitor has not given it: show the form. */
  | { kind: 'passwordRequired'; page: StatusPage };

export interface PublicPageOptions {
  /** How long a built page is served without asking the database whether anything changed. */
  refreshMs: number;
  /** Pages kept built in memory (least recently built dropped first). */
  maxEntries: number;
}

const keyOf = (ref: PublicPageRef): string => ('slug' in ref ? `slug:${ref.slug}` : `id:${ref.pageId}`);

interface Entry {
  fingerprint: string;
  checkedAt: number;
  model: PublicStatusPage;
}

/**
 * What a visitor of a status page gets. Built once per change, not per view: the built page is kept
 * with the fingerprint of what it shows; within refreshMs views are answered from memory, then one
 * cheap query tells whether anything changed (a component's state, an incident, a page update,
 * maintenance, the page itself) and only then is it built again. A day's end or a maintenance
 * boundary (validUntil) rebuilds it too. Concurrent views of a stale page share one rebuild.
 * Access: an IP allowlist answers forbidden to others; a password page asks for the password.
 */
export class GetPublicStatusPage {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<Entry>>();

  constructor(
    private readonly pages: StatusPageRepository,
    private readonly readings: StatusPageReadings,
    private readonly build: BuildPublicStatusPage,
    private readonly tokens: PageAccessTokens,
    private readonly clock: Clock,
    private readonly options: PublicPageOptions,
  ) {}

  async execute(ref: PublicPageRef, visitor: Visitor): Promise<PublicPageAnswer> {
    return this.answer(await this.current(ref), visitor);
  }

  /**
   * The answer from the page kept in memory, when it is fresh and the visitor's address is admitted;
   * otherwise undefined (ask `execute`). It reaches no port, so a view answered this way needs no
   * database context: most views of a busy page.
   */
  fromMemory(ref: PublicPageRef, visitor: Visitor): PublicPageAnswer | undefined {
    const entry = this.entries.get(keyOf(ref));
    if (!entry || !this.isFresh(entry, this.clock.now().getTime()) || !entry.model.page.admitsAddress(visitor.ip)) return undefined;
    return this.answer(entry, visitor);
  }

  private answer(entry: Entry, visitor: Visitor): PublicPageAnswer {
    const page = entry.model.page;
    if (!page.admitsAddress(visitor.ip)) throw new AppError('forbidden', {}, 'This status page is not shown to your network');
    if (page.passwordHash !== null && !this.tokens.verify(page, visitor.accessToken, this.clock.now()))
      return { kind: 'passwordRequired', page };
    return { kind: 'page', model: entry.model };
  }

  private isFresh(entry: Entry, now: number): boolean {
    return now - entry.checkedAt < this.options.refreshMs && now < entry.model.validUntil.getTime();
  }

  /** The page itself, for its password form (no model built). */
  async page(ref: PublicPageRef): Promise<StatusPage> {
    const page = 'slug' in ref ? await this.pages.findBySlug(ref.slug) : await this.pages.findById(ref.pageId);
    if (!page) throw new AppError('statusPageNotFound');
    return page;
  }

  private async current(ref: PublicPageRef): Promise<Entry> {
    const key = keyOf(ref);
    const entry = this.entries.get(key);
    if (entry && this.isFresh(entry, this.clock.now().getTime())) return entry;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.refresh(key, ref, entry).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async refresh(key: string, ref: PublicPageRef, previous: Entry | undefined): Promise<Entry> {
    const page = await this.page(ref).catch((error) => {
      this.entries.delete(key);
      throw error;
    });
    const fingerprint = await this.readings.fingerprint(page);
    const now = this.clock.now();
    if (previous && previous.fingerprint === fingerprint && now.getTime() < previous.model.validUntil.getTime()) {
      previous.checkedAt = now.getTime();
      return previous;
    }
    const model = await this.build.execute(page, `${fingerprint.slice(0, 12)}-${now.getTime().toString(36)}`, now);
    const entry = { fingerprint, checkedAt: now.getTime(), model };
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }
}
