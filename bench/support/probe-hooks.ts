/**
 * The service side of bench/probe.bench.ts, installed in bench/support/engine-process.ts. IPC:
 *   {type: 'probe-location', code} -> {secret, locationId}   a private location of the seeded `bench`
 *     organization and a probe key for it, made by the service's own use cases (as POST /api/locations
 *     and POST /api/locations/{code}/keys make them)
 *   {type: 'probe-window'} -> {stored, batches, lagMs: {p50, p99, max, count}}   what ReceiveProbeResults
 *     stored (recorded + late) since the previous such request, and the lag of each stored result:
 *     the time its batch was stored less its checkedAt (the probe's clock is the server's), and how many
 *     batches the steady statement stored (SqlSteadyProbeResults)
 */
import { RequestContext } from '@mikro-orm/postgresql';
import type { RunningApplication } from '../../src/main/application';
import type { Actor } from '../../src/application/shared/actor';
import { CreateLocation } from '../../src/application/locations/create-location';
import { CreateProbeKey } from '../../src/application/locations/create-probe-key';
import { ReceiveProbeResults } from '../../src/application/probes/receive-probe-results';
import { SqlSteadyProbeResults } from '../../src/infrastructure/probes/sql-steady-probe-results';
import { organizationScope } from '../../src/domain/shared/tenant-scope';
import { sql } from '../../src/infrastructure/persistence/sql';

interface Window {
  stored: number;
  batches: number;
  /** Batches stored by the steady statement (SqlSteadyProbeResults answered true). */
  steadyBatches: number;
  lags: number[];
}
let window: Window = { stored: 0, batches: 0, steadyBatches: 0, lags: [] };

/** Wraps ReceiveProbeResults so the bench can tell what was stored and how late (before the service starts). */
export function installProbeHooks(): void {
  const execute = ReceiveProbeResults.prototype.execute;
  ReceiveProbeResults.prototype.execute = async function (this: ReceiveProbeResults, caller, results, status) {
    const answer = await execute.call(this, caller, results, status);
    const storedAt = Date.now();
    const stored = answer.recorded + answer.late;
    window.stored += stored;
    window.batches += 1;
    if (stored > 0) for (const result of results) window.lags.push(storedAt - result.result.checkedAt.getTime());
    return answer;
  };
  const store = SqlSteadyProbeResults.prototype.store;
  SqlSteadyProbeResults.prototype.store = async function (this: SqlSteadyProbeResults, batch) {
    const stored = await store.call(this, batch);
    if (stored) window.steadyBatches += 1;
    return stored;
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Answers the probe bench's requests; false for other messages. */
export async function probeMessage(app: RunningApplication, m: { type: string; id: number; code?: string }): Promise<boolean> {
  if (m.type === 'probe-window') {
    const sorted = window.lags.sort((a, b) => a - b);
    process.send!({
      id: m.id,
      stored: window.stored,
      batches: window.batches,
      steadyBatches: window.steadyBatches,
      lagMs: { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? null, count: sorted.length },
    });
    window = { stored: 0, batches: 0, steadyBatches: 0, lags: [] };
    return true;
  }
  if (m.type !== 'probe-location') return false;
  const [org] = await app.database.sql.query<{ id: number }>(sql`SELECT id FROM organizations WHERE name = 'bench' ORDER BY id LIMIT 1`);
  const actor: Actor = {
    kind: 'apiToken',
    userId: null,
    role: 'admin',
    scope: organizationScope(Number(org!.id)),
    isPlatformAdmin: false,
    isPlatformSupporter: false,
    sessionId: null,
    tokenId: null,
    mfaEnabled: false,
    stepUpVerifiedAt: null,
    agentScopes: [],
  };
  const code = m.code!;
  const issued = await RequestContext.create(app.database.orm.em, async () => {
    await app.container.get(CreateLocation).execute(actor, { realm: 'organization', code, name: 'Bench probe' });
    return app.container.get(CreateProbeKey).execute(actor, { realm: 'organization', code, name: 'bench probe' });
  });
  process.send!({ id: m.id, secret: issued.secret });
  return true;
}
