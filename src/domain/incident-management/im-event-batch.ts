import type { ImIncident } from './im-incident';

export type ImEventAction = 'trigger' | 'acknowledge' | 'resolve';
export type ImEventOutcome = 'created' | 'occurrence' | 'acknowledged' | 'resolved' | 'ignored';

/** What one event did: its key, what happened, and the incident it acted on (none when ignored without one). */
export interface ImEventDecision {
  readonly outcome: ImEventOutcome;
  readonly incident: ImIncident | null;
}

const keyOf = (organizationId: number, dedupKey: string) => `${organizationId}\u0000${dedupKey}`;

/**
 * The open incidents of a set of (organization, dedup key) pairs while a batch of events changes them
 * in memory, one event at a time in arrival order, exactly as the events would one by one: a
 * trigger opens an incident or adds an occurrence to the open one with its key; acknowledge and
 * resolve act on the open incident with the key and are ignored when there is none (or it is
 * already acknowledged); after a resolve the key has no open incident, so the next trigger opens a
 * new one. Each change of status moves the incident's version, as saving it after each event would
 * (occurrences do not). What changed is then handed to storage: the incidents opened here, and the loaded ones
 * that changed, each with its pending timeline entries.
 */
export class OpenImIncidents {
  private readonly open = new Map<string, ImIncident>();
  private readonly opened = new Set<ImIncident>();
  private readonly changed = new Set<ImIncident>();

  /** `loaded`: the open incidents of the batch's keys as stored (at most one per key). */
  constructor(loaded: Iterable<ImIncident>) {
    for (const incident of loaded) if (incident.isOpen) this.open.set(keyOf(incident.organizationId, incident.dedupKey), incident);
  }

  /** `candidate` is the incident a trigger opens when its key has none open (ImIncident.trigger). */
  trigger(
    organizationId: number,
    dedupKey: string,
    candidate: () => ImIncident,
    now: Date,
    details: Record<string, unknown>,
  ): ImEventDecision {
    const key = keyOf(organizationId, dedupKey);
    const incident = this.open.get(key);
    if (incident) {
      incident.occur(now, details);
      this.touch(incident);
      return { outcome: 'occurrence', incident };
    }
    const fresh = candidate();
    this.open.set(key, fresh);
    this.opened.add(fresh);
    return { outcome: 'created', incident: fresh };
  }

  acknowledge(organizationId: number, dedupKey: string, now: Date): ImEventDecision {
    const incident = this.open.get(keyOf(organizationId, dedupKey));
    if (!incident) return { outcome: 'ignored', incident: null };
    if (incident.status === 'acknowledged') return { outcome: 'ignored', incident };
    incident.acknowledge(null, now);
    incident.version += 1;
    this.touch(incident);
    return { outcome: 'acknowledged', incident };
  }

  resolve(organizationId: number, dedupKey: string, now: Date, details: Record<string, unknown>): ImEventDecision {
    const key = keyOf(organizationId, dedupKey);
    const incident = this.open.get(key);
    if (!incident) return { outcome: 'ignored', incident: null };
    incident.resolve(null, now, details);
    incident.version += 1;
    this.open.delete(key);
    this.touch(incident);
    return { outcome: 'resolved', incident };
  }

  /** Incidents this batch opened (in the order opened), with their final state and timeline. */
  get created(): ImIncident[] {
    return [...this.opened];
  }

  /** Stored incidents this batch changed (in the order first changed), with their final state and new timeline entries. */
  get updated(): ImIncident[] {
    return [...this.changed];
  }

  private touch(incident: ImIncident): void {
    if (!this.opened.has(incident)) this.changed.add(incident);
  }
}
