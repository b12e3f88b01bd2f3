import type { ProbeIdentity } from '../locations/ports';

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
