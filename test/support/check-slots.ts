import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FaultRig } from './fault-rig';
import { mustCall } from './fault-rig';

/**
 * TEST SUPPORT ONLY: a loopback HTTP target that answers 200 after `delayMs` (so checks are in
 * flight for a while) and counts the requests it got.
 */
export async function aSlowTarget(delayMs: number) {
  let requests = 0;
  const server = http.createServer((_req, res) => {
    requests++;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `count` one-minute website monitors of one customer, created through the API at `url`. Answers their ids. */
export async function oneMinuteWebsites(url: string, token: string, targetUrl: string, count: number): Promise<number[]> {
  // A package that allows one-minute checks (the default minimum is five) and enough monitors.
  const pack = await mustCall(url, 'POST', '/api/package-configs', 201, {
    token,
    body: { key: 'faults', displayName: 'Faults', minCheckIntervalMinutes: 1, quotaTiers: [{ monitorLimit: count, priceMonthly: 0 }] },
  });
  const customer = await mustCall(url, 'POST', '/api/customers', 200, {
    token,
    body: { name: 'Fault customer', email: 'fault-customer@test.example', packageId: pack.id },
  });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const site = await mustCall(url, 'POST', '/api/websites', 201, {
      token,
      body: { customerId: customer.customer.id, url: `${targetUrl}?m=${i}`, checkInterval: 1, timeoutSeconds: 10 },
    });
    ids.push(site.id as number);
  }
  return ids;
}

/**
 * Puts the schedule on a grid the test controls: row i (in monitor order) has its slot at
 * `firstSlot + i * spacingMs`, and every slot a whole interval after (the phase is the grid's
 * offset). Only for rows no worker holds yet (a worker reads a row's slot when it claims it).
 */
export async function placeSlots(rig: FaultRig, firstSlot: Date, spacingMs: number): Promise<void> {
  await rig.sql(
    `WITH ordered AS (SELECT monitor_id, location, row_number() OVER (ORDER BY monitor_id, location) - 1 AS i FROM check_schedule)
     UPDATE check_schedule s
     SET next_due_at = $1::timestamptz + o.i * $2 * interval '1 millisecond',
         phase_ms = ((floor(extract(epoch FROM $1::timestamptz) * 1000)::bigint + o.i * $2) % s.interval_ms)
     FROM ordered o WHERE s.monitor_id = o.monitor_id AND s.location = o.location`,
    [firstSlot, spacingMs],
  );
}

/** A stored result, with the slot of its monitor's grid it belongs to (the grid point at or before it started). */
export interface SlotResult {
  monitorId: number;
  location: string;
  checkedAt: number;
  slot: number;
}

/** Every stored result of the schedule's monitors, each placed on its row's grid. */
export async function slotResults(rig: FaultRig): Promise<SlotResult[]> {
  const rows = await rig.sql<{ monitor_id: string; location: string; checked_ms: string; slot_ms: string }>(
    `SELECT r.monitor_id, l.code AS location, floor(extract(epoch FROM r.checked_at) * 1000)::bigint AS checked_ms,
            (floor((floor(extract(epoch FROM r.checked_at) * 1000)::bigint - s.phase_ms)::numeric / s.interval_ms) * s.interval_ms + s.phase_ms)::bigint AS slot_ms
     FROM check_results r JOIN check_locations l ON l.id = r.location_id
     JOIN check_schedule s ON s.monitor_id = r.monitor_id AND s.location = l.code
     ORDER BY r.monitor_id, r.checked_at`,
  );
  return rows.map((r) => ({
    monitorId: Number(r.monitor_id),
    location: r.location,
    checkedAt: Number(r.checked_ms),
    slot: Number(r.slot_ms),
  }));
}

/** Results per (monitor, location, slot): the keys seen more than once. */
export function slotsRunTwice(results: readonly SlotResult[]): string[] {
  const counts = new Map<string, number>();
  for (const r of results) {
    const key = `${r.monitorId}/${r.location}/${new Date(r.slot).toISOString()}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > 1).map(([key, n]) => `${key} x${n}`);
}

/**
 * Slots of each (monitor, location) between its first result and `until` that have no result:
 * a slot lost. `intervalMs` is the grid's.
 */
export function slotsMissing(results: readonly SlotResult[], intervalMs: number, until: number): string[] {
  const byRow = new Map<string, Set<number>>();
  for (const r of results) {
    const key = `${r.monitorId}/${r.location}`;
    const slots = byRow.get(key) ?? new Set<number>();
    slots.add(r.slot);
    byRow.set(key, slots);
  }
  const missing: string[] = [];
  for (const [key, slots] of byRow) {
    const first = Math.min(...slots);
    for (let slot = first; slot <= until; slot += intervalMs) {
      if (!slots.has(slot)) missing.push(`${key}/${new Date(slot).toISOString()}`);
    }
  }
  return missing;
}
