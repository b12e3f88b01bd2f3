import { AppError } from '../../domain/shared/app-error';
import type { ProbeIdentity } from '../locations/ports';
import type { ProbeRegistry } from './ports';

/** A probe as one request speaks for it: its key's location and its process. */
export interface ProbeCaller extends ProbeIdentity {
  readonly instanceId: string;
}

/** A probe's worker names: `probe:<instance>:<generation>`, so a probe can only ever act as itself. */
export const probeWorkerPrefix = (instanceId: string) => `probe:${instanceId}:`;
export const probeWorker = (instanceId: string, generation: number) => `${probeWorkerPrefix(instanceId)}${generation}`;
export const isProbeWorkerOf = (instanceId: string, worker: string) =>
  worker.startsWith(probeWorkerPrefix(instanceId)) && /^\d{1,9}$/.test(worker.slice(probeWorkerPrefix(instanceId).length));

/**
 * How long a probe's worker lives without renewing (as the engine's: it renews with every batch of
 * results and at least every fifth of this). Then its rows go to the other probes of its location.
 */
export const PROBE_LEASE_MS = 15_000;

/**
 * The rule of every probe call but hello: it acts only for a process registered at the calling
 * key's location (so at that location's organization). The process is noted alive; any other
 * (never said hello, or registered under another key's location) is refused as unknown.
 */
export async function assertRegistered(registry: ProbeRegistry, caller: ProbeCaller, now: Date): Promise<void> {
  if (!(await registry.touch(caller.instanceId, caller.locationId, now))) throw new AppError('probeNotRegistered');
}
