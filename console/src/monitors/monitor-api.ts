import { api, ApiError, ok, type Schemas } from '../api/client';
import type { MonitorKind } from './monitor-rows';

export type AnyMonitor = Schemas['Website'] | Schemas['Monitor'];
export type Tag = Schemas['Tag'];
export type Location = Schemas['Location'];
export type ChangeRequest = Schemas['ChangeRequest'];
type Body = Record<string, unknown>;

/**
 * The per-kind paths: websites under /api/websites, the other kinds under /api/monitors/{kind},
 * every kind's record and body of the one shape its schema names. The typed client knows each path;
 * the cast picks one of them (the DNS one) to stand for all.
 */
const kindPath = (kind: Exclude<MonitorKind, 'website'>) => `/api/monitors/${kind}` as '/api/monitors/dns';
const kindItem = (kind: Exclude<MonitorKind, 'website'>) => `/api/monitors/${kind}/{id}` as '/api/monitors/dns/{id}';

export async function getMonitor(kind: MonitorKind, id: string): Promise<AnyMonitor> {
  if (kind === 'website') return ok(api.GET('/api/websites/{id}', { params: { path: { id } } }));
  return ok(api.GET(kindItem(kind), { params: { path: { id } } }));
}

export async function createMonitor(kind: MonitorKind, body: Body): Promise<AnyMonitor> {
  if (kind === 'website') return ok(api.POST('/api/websites', { body: body as Schemas['WebsiteCreate'] }));
  return ok(api.POST(kindPath(kind), { body: body as Schemas['DnsMonitorCreate'] }));
}

export async function updateMonitor(kind: MonitorKind, id: string, body: Body): Promise<AnyMonitor> {
  if (kind === 'website') return ok(api.PATCH('/api/websites/{id}', { params: { path: { id } }, body: body as Schemas['WebsitePatch'] }));
  return ok(api.PATCH(kindItem(kind), { params: { path: { id } }, body: body as Schemas['DnsMonitorPatch'] }));
}

/** Proposes `changes` (what a PATCH would send) for the organization to approve. */
export async function requestChange(kind: MonitorKind, id: string, changes: Body, note: string): Promise<ChangeRequest> {
  const body = { action: 'update' as const, changes, ...(note.trim() ? { note: note.trim() } : {}) };
  const params = { path: { id } };
  try {
    if (kind === 'website')
      return await ok(api.POST('/api/websites/{id}/change-requests', { params, body: body as Schemas['WebsiteChangeRequestCreate'] }));
    const path = `/api/monitors/${kind}/{id}/change-requests` as '/api/monitors/dns/{id}/change-requests';
    return await ok(api.POST(path, { params, body: body as never }));
  } catch (failure) {
    // A change request's issues name `changes.<field>`: point them at the field itself.
    if (failure instanceof ApiError && failure.issues.some((issue) => issue.path[0] === 'changes')) {
      const issues = failure.issues.map((issue) => (issue.path[0] === 'changes' ? { ...issue, path: issue.path.slice(1) } : issue));
      throw new ApiError(failure.status, failure.code, failure.message, issues, failure.data);
    }
    throw failure;
  }
}

/** Attaches and detaches tags so that the monitor carries exactly `wanted` (tag publicIds). */
export async function setTags(kind: MonitorKind, monitorId: string, had: readonly string[], wanted: readonly string[]): Promise<void> {
  for (const tagId of wanted.filter((id) => !had.includes(id)))
    await ok(api.POST('/api/monitor-tags', { body: { tagId, monitorId, monitorType: kind } }));
  for (const tagId of had.filter((id) => !wanted.includes(id)))
    await ok(api.DELETE('/api/monitor-tags', { body: { tagId, monitorId, monitorType: kind } }));
}

export async function loadTags(): Promise<Tag[]> {
  return (await ok(api.GET('/api/tags', { params: { query: { perPage: 200 } } }))).items;
}

export async function loadLocations(): Promise<Location[]> {
  return (await ok(api.GET('/api/locations', { params: { query: { perPage: 200 } } }))).items;
}

type ResultRead = 'check-history' | 'uptime-stats' | 'response-times' | 'trigger-check';
/**
 * The path of a monitor's results, uptime, response times or "check now": its kind's own path
 * (/api/monitors/{kind}/{id}/...) or the website's. Every kind's is of the one shape: typed as the website's.
 */
export const resultsPath = <R extends ResultRead>(kind: MonitorKind, read: R) =>
  (kind === 'website' ? `/api/websites/{id}/${read}` : `/api/monitors/${kind}/{id}/${read}`) as `/api/websites/{id}/${R}`;
