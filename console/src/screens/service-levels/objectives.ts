import { api, ok, type Schemas } from '../../api/client';

export type Objective = Schemas['ServiceLevelObjective'];
export type Status = Schemas['ServiceLevelStatus'];
export type Window = Objective['window'];

export const WINDOWS: Record<Window, string> = {
  rolling7d: 'Last 7 days',
  rolling28d: 'Last 28 days',
  rolling30d: 'Last 30 days',
  calendarMonth: 'Calendar month',
};

/** Every objective the user may see (GET /api/service-levels, 200 a page). */
export async function loadObjectives(): Promise<Objective[]> {
  const all: Objective[] = [];
  for (let page = 1; ; page++) {
    const found = await ok(api.GET('/api/service-levels', { params: { query: { page, perPage: 200 } } }));
    all.push(...found.items);
    if (all.length >= found.total || found.items.length === 0) return all;
  }
}

export const statusOf = (id: string): Promise<Status> => ok(api.GET('/api/service-levels/{id}/status', { params: { path: { id } } }));

/** Minutes as people read them: "43.2 min", "2 h 5 min", "-3.1 min". */
export function minutes(value: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs < 60) return `${sign}${abs.toFixed(1)} min`;
  const hours = Math.floor(abs / 60);
  return `${sign}${hours} h ${Math.round(abs - hours * 60)} min`;
}

/** A burn rate: "14.4x", or a dash when nothing is known. */
export const rate = (value: number | null): string => (value === null ? '—' : `${value.toFixed(1)}x`);
