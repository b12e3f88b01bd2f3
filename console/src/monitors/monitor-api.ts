import { api, ApiError, ok, type Schemas } from '../api/client';
import type { ChangeRequestBody, Changes, CollectionPath, CreateBody, ItemPath, MonitorKind, PatchBody } from './monitor-bodies';

export type AnyMonitor = Schemas['Website'] | Schemas['Monitor'];
export type Tag = Schemas['Tag'];
export type Location = Schemas['Location'];
export type ChangeRequest = Schemas['ChangeRequest'];

/** The per-kind paths: websites under /api/websites, the other kinds under /api/monitors/{kind}. */
const collectionOf = (kind: MonitorKind): CollectionPath<MonitorKind> => (kind === 'website' ? '/api/websites' : `/api/monitors/${kind}`);
const itemOf = (kind: MonitorKind): ItemPath<MonitorKind> => `${collectionOf(kind)}/{id}`;

export async function getMonitor(kind: MonitorKind, id: string): Promise<AnyMonitor> {
  return ok(api.GET(itemOf(kind), { params: { path: { id } } }));
}

/**
 * Creates a monitor of a kind from what its form sends. What the API requires the form always sends
 * (a required field is not in the form's baseline), so the changes are the kind's create body; a
 * field still missing is the API's to name.
 */
export async function createMonitor<K extends MonitorKind>(kind: K, body: Changes<CreateBody<K>>): Promise<AnyMonitor> {
  return ok(api.POST(collectionOf(kind), { body: body as CreateBody<K> }));
}

export async function updateMonitor<K extends MonitorKind>(kind: K, id: string, body: PatchBody<K>): Promise<AnyMonitor> {
  return ok(api.PATCH(itemOf(kind), { params: { path: { id } }, body }));
}

/** Proposes `changes` (what a PATCH would send) for the organization to approve. */
export async function requestChange(kind: MonitorKind, id: string, changes: PatchBody<MonitorKind>, note: string): Promise<ChangeRequest> {
  const body: ChangeRequestBody<MonitorKind> = { action: 'update', changes, ...(note.trim() ? { note: note.trim() } : {}) };
  try {
    return await ok(api.POST(`${itemOf(kind)}/change-requests`, { params: { path: { id } }, body }));
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
/** The path of a monitor's results, uptime, response times or "check now": its kind's own path (/api/monitors/{kind}/{id}/...) or the website's. */
export const resultsPath = <R extends ResultRead>(kind: MonitorKind, read: R): `${ItemPath<MonitorKind>}/${R}` => `${itemOf(kind)}/${read}`;
