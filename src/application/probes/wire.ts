import type { CheckRequest } from '../../domain/checks/check-request';
import type { CheckResult } from '../../domain/checks/check-result';
import type { ClaimedCheck, ScheduleChange } from '../scheduling/ports';

/**
 * The probe protocol's JSON forms (version 1): what the server and a probe exchange over HTTPS.
 * Times travel as epoch milliseconds; both sides convert with these functions only.
 */
export const PROBE_PROTOCOL_VERSION = 1;

/** A held row: [monitorId, slot (ms), intervalMs, phaseMs]; the location is the probe's. */
export type WireRow = [number, number, number, number];

export const rowToWire = (row: ClaimedCheck): WireRow => [row.monitorId, row.slot.getTime(), row.intervalMs, row.phaseMs];
export const rowFromWire = ([monitorId, slot, intervalMs, phaseMs]: WireRow, location: string): ClaimedCheck => ({
  monitorId,
  location,
  slot: new Date(slot),
  intervalMs,
  phaseMs,
});

/** What a row runs. Owners are not sent: the server knows them and never takes them from a probe. */
export interface WirePlan {
  readonly monitorId: number;
  readonly request: CheckRequest;
}

export interface WireChange {
  readonly seq: number;
  readonly monitorId: number;
  readonly triggered: boolean;
  readonly at: number;
}
export const changeToWire = (c: ScheduleChange): WireChange => ({
  seq: c.seq,
  monitorId: c.monitorId,
  triggered: c.triggered,
  at: c.at.getTime(),
});
export const changeFromWire = (c: WireChange): ScheduleChange => ({ ...c, at: new Date(c.at) });

/** A check result as a probe reports it: `seq` numbers the probe's results, once each, in order. */
export interface WireResult {
  readonly seq: number;
  /** The worker name (generation included) that ran it: results of a fenced or lapsed worker are stored as late. */
  readonly worker: string;
  readonly monitorId: number;
  readonly slot: number;
  readonly startedAt: number;
  readonly result: Omit<CheckResult, 'checkedAt'> & { readonly checkedAt: number };
}

export const resultToWire = (result: CheckResult): WireResult['result'] => ({ ...result, checkedAt: result.checkedAt.getTime() });
export const resultFromWire = (result: WireResult['result']): CheckResult => ({ ...result, checkedAt: new Date(result.checkedAt) });

/** How a probe is doing, sent with each batch of results and shown in the location's status. */
export interface WireProbeStatus {
  readonly monitorsHeld: number;
  readonly checksPerSecond: number;
  /** Age of the oldest result waiting in the probe's buffer (ms). */
  readonly lagMs: number;
  /** Results waiting in the probe's buffer. */
  readonly buffered: number;
  /** Results the probe dropped from its full buffer since it started (oldest first). */
  readonly dropped: number;
}
