import { currentStateOf, type CurrentState } from '../../domain/incidents/current-state';
import { livenessChange, quorumOf, type Liveness } from '../../domain/incidents/quorum';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import type {
  LiveLocations,
  LivenessCandidate,
  LivenessUpdate,
  MonitorLivenessStore,
  MonitorStateEvent,
  OrganizationEvents,
} from './ports';

export interface SilenceReport {
  /** Monitors looked at (checked from a silent location, or stored as silent). */
  readonly looked: number;
  /** Liveness changes stored. */
  readonly changed: number;
  /** Monitors that became unknown, and known again. */
  readonly becameUnknown: number;
  readonly becameKnown: number;
}

const PAGE = 500;

/**
 * Silence is noticed without results: a location whose check processes all stopped sends nothing,
 * so this job (every few seconds) compares each affected monitor's quorum under the live locations
 * with what is stored of it. A monitor that can no longer be decided becomes unknown, one that can
 * again becomes known, once per transition (the store writes a change only over the liveness it was
 * computed from), and the organization is told in the same transaction. Only monitors checked from a
 * silent location, or stored as silent, are read: while every location is live it reads nothing.
 */
export class NoticeLocationSilence {
  constructor(
    private readonly liveness: LiveLocations,
    private readonly store: MonitorLivenessStore,
    private readonly events: OrganizationEvents,
    private readonly transactions: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<SilenceReport> {
    const now = this.clock.now();
    const codes = await this.liveness.live(now);
    const live = new Set(codes);
    const report = { looked: 0, changed: 0, becameUnknown: 0, becameKnown: 0 };
    for (let afterId = 0; ;) {
      const candidates = await this.store.candidates(codes, afterId, PAGE);
      if (candidates.length === 0) break;
      afterId = candidates.at(-1)!.monitorId;
      report.looked += candidates.length;
      const updates = candidates.flatMap((candidate): LivenessUpdate[] => {
        const change = livenessChange(candidate.stored, quorumOf(candidate.policy, candidate.reported, live), now);
        return change ? [{ candidate, change }] : [];
      });
      if (updates.length === 0) continue;
      await this.transactions.run(async (tx) => {
        const stored = new Set(await this.store.store(updates, now, tx));
        const told = updates.filter((u) => u.change.transition !== null && stored.has(u.candidate.monitorId)).map(eventOf);
        await this.events.monitorStateChanged(told, tx);
        report.changed += stored.size;
        report.becameUnknown += told.filter((e) => e.action === 'monitor.stateUnknown').length;
        report.becameKnown += told.filter((e) => e.action === 'monitor.stateKnown').length;
      });
      if (candidates.length < PAGE) break;
    }
    return report;
  }
}

const stateOf = (candidate: LivenessCandidate, liveness: Liveness): CurrentState =>
  currentStateOf({
    paused: candidate.paused,
    reported: candidate.reported.length > 0,
    incidentOpen: candidate.incidentOpen,
    silentLocations: liveness.silentLocations,
    undecidedSince: liveness.undecidedSince,
  });

function eventOf({ candidate, change }: LivenessUpdate): MonitorStateEvent {
  const before = stateOf(candidate, candidate.stored);
  const after = stateOf(candidate, change);
  return {
    organizationId: candidate.organizationId,
    customerId: candidate.customerId,
    monitorPublicId: candidate.publicId,
    action: change.transition === 'stateUnknown' ? 'monitor.stateUnknown' : 'monitor.stateKnown',
    before: { status: before.status, silentLocations: before.silentLocations },
    after: { status: after.status, silentLocations: after.silentLocations },
  };
}
