import type { ComponentState, DayBar } from '../../domain/status-pages/component-status';
import type { UpdateStatus } from '../../domain/status-pages/page-incident';
import type { ComponentType, StatusPage } from '../../domain/status-pages/status-page';

export interface PublicComponent {
  readonly id: string;
  readonly type: ComponentType;
  readonly name: string;
  readonly state: ComponentState;
  /** Last response time (monitors, when the page shows them). */
  readonly responseTimeMs: number | null;
  /** 90 daily bars, oldest first (monitors); null for domains and IPs, which have no daily history. */
  readonly days: readonly DayBar[] | null;
  /** Up of the known time over the 90 days; null when nothing is known. */
  readonly uptimePercent: number | null;
  /** When the figure starts, if the monitor is younger than the 90 days shown (else null: the whole 90 days). */
  readonly uptimeSince: Date | null;
}

export interface PublicIncident {
  readonly id: string;
  readonly title: string;
  readonly status: UpdateStatus;
  /** `page`: declared on the page; otherwise the service incident's origin. */
  readonly origin: 'page' | 'automatic' | 'manual';
  readonly componentIds: readonly string[];
  readonly startedAt: Date;
  readonly resolvedAt: Date | null;
  /** Newest first. */
  readonly updates: readonly { status: UpdateStatus; message: string; at: Date }[];
}

export interface PublicMaintenance {
  readonly id: string;
  readonly title: string;
  readonly description: string | null;
  readonly start: Date;
  readonly end: Date;
  readonly componentIds: readonly string[];
}

/** A service level objective the page shows, measured when the page was built. */
export interface PublicObjective {
  readonly id: string;
  readonly name: string;
  readonly subjectType: 'monitor' | 'customer';
  /** The monitor's name, "All monitors" or "Monitors tagged …". */
  readonly subjectName: string;
  readonly target: number;
  readonly window: string;
  readonly attainmentPercent: number | null;
  readonly met: boolean | null;
  readonly windowFrom: Date;
  readonly windowTo: Date;
}

/** Everything a visitor reads on a page, computed once per change (see GetPublicStatusPage). */
export interface PublicStatusPage {
  readonly page: StatusPage;
  readonly state: ComponentState;
  readonly headline: string;
  readonly groups: readonly { name: string; state: ComponentState; components: readonly PublicComponent[] }[];
  readonly activeIncidents: readonly PublicIncident[];
  readonly pastIncidents: readonly PublicIncident[];
  readonly activeMaintenance: readonly PublicMaintenance[];
  readonly scheduledMaintenance: readonly PublicMaintenance[];
  readonly objectives: readonly PublicObjective[];
  readonly generatedAt: Date;
  /** The model holds until then at the latest (a day ends, a maintenance starts or ends) even if nothing is written. */
  readonly validUntil: Date;
  /** Changes whenever what the page shows changes: the cache's key, the HTTP ETag. */
  readonly version: string;
}
