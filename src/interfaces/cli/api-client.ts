/**
 * The one module of the CLI that speaks HTTP: the public REST API with a bearer token. Every
 * refusal becomes an ApiError carrying the envelope's stable code and message.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly issues: ReadonlyArray<{ path?: unknown[]; message?: string }> = [],
  ) {
    super(message);
  }

  /** "400 invalidUrl: ..." with the schema issues' paths, as the CLI prints it. */
  describe(): string {
    const issues = this.issues.map((i) => ` ${(i.path ?? []).join('.')}: ${i.message ?? ''}`).join(';');
    return `${this.status}${this.code ? ` ${this.code}` : ''}: ${this.message}${issues ? ` (${issues.trim()})` : ''}`;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API records are read field by field as JSON
export type ApiRecord = Record<string, any>;

export interface Page {
  items: ApiRecord[];
  total: number;
  page: number;
  perPage: number;
}

/** Page size of the list calls: the API's largest. */
export const PER_PAGE = 200;

/** Pages of one list asked for at once once its first page told the total. */
export const PAGES_IN_FLIGHT = 4;

export class ApiClient {
  private readonly base: string;

  constructor(
    url: string,
    private readonly token: string,
  ) {
    this.base = url.replace(/\/+$/, '');
  }

  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
      throw new ApiError(0, null, `cannot reach ${this.base}: ${cause}`);
    }
    const text = await response.text();
    let parsed: ApiRecord | undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const data = parsed?.data ?? {};
      throw new ApiError(
        response.status,
        typeof data.code === 'string' ? data.code : null,
        String(parsed?.message ?? response.statusText),
        Array.isArray(data.issues) ? data.issues : [],
      );
    }
    return parsed as T;
  }

  /**
   * Every item of a paged list: the first page, then (its total known) the others, `PAGES_IN_FLIGHT`
   * at a time; a list that grew meanwhile is read on page after page until a short one. `each`
   * turns each page's records into what the caller keeps as the page arrives (the records of
   * thousands of monitors then never pile up beside what is made of them).
   */
  async all<T = ApiRecord>(path: string, query: Record<string, string> = {}, each: (record: ApiRecord) => T = (r) => r as T): Promise<T[]> {
    const first = await this.page(path, query, 1);
    if (first.items.length < PER_PAGE || first.items.length >= first.total) return first.items.map(each);
    const last = Math.ceil(first.total / PER_PAGE);
    const pages: T[][] = [first.items.map(each)];
    let tail = { length: first.items.length, total: first.total };
    let next = 2;
    const worker = async () => {
      for (let page = next++; page <= last; page = next++) {
        const answer = await this.page(path, query, page);
        pages[page - 1] = answer.items.map(each);
        if (page === last) tail = { length: answer.items.length, total: answer.total };
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGES_IN_FLIGHT, last - 1) }, worker));
    const items = pages.flat();
    for (let page = last + 1; tail.length === PER_PAGE && items.length < tail.total; page += 1) {
      const answer = await this.page(path, query, page);
      items.push(...answer.items.map(each));
      tail = { length: answer.items.length, total: answer.total };
    }
    return items;
  }

  private page(path: string, query: Record<string, string>, page: number): Promise<Page> {
    const search = new URLSearchParams({ ...query, page: String(page), perPage: String(PER_PAGE) });
    return this.request<Page>('GET', `${path}?${search}`);
  }

  customers(): Promise<ApiRecord[]> {
    return this.request('GET', '/api/customers');
  }

  tags(): Promise<ApiRecord[]> {
    return this.all('/api/tags');
  }

  createTag(body: ApiRecord): Promise<ApiRecord> {
    return this.request('POST', '/api/tags', body);
  }

  updateTag(id: string, body: ApiRecord): Promise<ApiRecord> {
    return this.request('PATCH', `/api/tags/${encodeURIComponent(id)}`, body);
  }

  deleteTag(id: string): Promise<void> {
    return this.request('DELETE', `/api/tags/${encodeURIComponent(id)}`);
  }

  channels(): Promise<ApiRecord[]> {
    return this.all('/api/notification-channels');
  }

  createChannel(body: ApiRecord): Promise<ApiRecord> {
    return this.request('POST', '/api/notification-channels', body);
  }

  updateChannel(id: string, body: ApiRecord): Promise<ApiRecord> {
    return this.request('PATCH', `/api/notification-channels/${encodeURIComponent(id)}`, body);
  }

  deleteChannel(id: string): Promise<void> {
    return this.request('DELETE', `/api/notification-channels/${encodeURIComponent(id)}`);
  }

  /** The monitors of a kind: websites at /api/websites, the others at /api/monitors/{kind} (`each` as `all`'s). */
  monitors<T = ApiRecord>(kind: string, customerId?: string, each?: (record: ApiRecord) => T): Promise<T[]> {
    return this.all(monitorPath(kind), customerId ? { customerId } : {}, each);
  }

  createMonitor(kind: string, body: ApiRecord): Promise<ApiRecord> {
    return this.request('POST', monitorPath(kind), body);
  }

  updateMonitor(kind: string, id: string, body: ApiRecord): Promise<ApiRecord> {
    return this.request('PATCH', `${monitorPath(kind)}/${encodeURIComponent(id)}`, body);
  }

  deleteMonitor(kind: string, id: string): Promise<void> {
    return this.request('DELETE', `${monitorPath(kind)}/${encodeURIComponent(id)}`);
  }

  attachTag(kind: string, monitorId: string, tagId: string): Promise<void> {
    return this.request('POST', '/api/monitor-tags', { tagId, monitorId, monitorType: kind });
  }

  detachTag(kind: string, monitorId: string, tagId: string): Promise<void> {
    return this.request('DELETE', '/api/monitor-tags', { tagId, monitorId, monitorType: kind });
  }
}

const monitorPath = (kind: string) => (kind === 'website' ? '/api/websites' : `/api/monitors/${kind}`);
