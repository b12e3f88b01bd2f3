import { isAppError } from '../../domain/shared/app-error';
import { ImIncident } from '../../domain/incident-management/im-incident';
import { effectiveImRoute, MONITOR_STORM_GAP_MS, monitorStormDedupKey } from '../../domain/incident-management/monitor-routing';
import type { Incident } from '../../domain/incidents/incident';
import { organizationScope, type TenantScope } from '../../domain/shared/tenant-scope';
import type { IncidentRouting, RoutedIncident } from '../incidents/ports';
import type { Clock } from '../shared/clock';
import type { Transaction } from '../shared/transaction';
import type { IdGenerator } from '../shared/id-generator';
import type { ImIncidentRepository, ImMonitorOrigins, ImRoutingSettings } from './ports';

type MonitorNamed = { readonly publicId: string; readonly monitorId: number; readonly name: string };

/** A person acting on the IM incident at the moment it resolves costs a re-read, this many times at most. */
const ATTEMPTS = 3;

/**
 * Routes the check engine's automatic incidents into incident management. Runs inside the engine's
 * transaction (under the monitor's alert-state lock), so the IM incident commits exactly when the
 * engine incident does. Engine incidents of one customer and route group into one IM incident while
 * it is open and the storm goes on (monitorStormDedupKey, MONITOR_STORM_GAP_MS): the first opens it
 * and escalates, the next are occurrences (timeline entries naming each monitor), so a responder is
 * paged once per storm; a repeated or racing report of one engine incident is one more occurrence,
 * never a second IM incident. When the last engine incident of the IM incident recovers, the IM
 * incident resolves, if it is still open, with a timeline entry naming the monitor.
 */
export class RouteMonitorIncident implements IncidentRouting {
  constructor(
    private readonly settings: ImRoutingSettings,
    private readonly incidents: ImIncidentRepository,
    private readonly origins: ImMonitorOrigins,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly stormGapMs: number = MONITOR_STORM_GAP_MS,
  ) {}

  /** One read for the batch's routing; only incidents of routed monitors cost more. */
  async opened(items: readonly RoutedIncident[], tx: Transaction): Promise<void> {
    if (items.length === 0) return;
    const contexts = await this.settings.forMonitorsIn(
      items.map((item) => item.monitor.monitorId),
      tx,
    );
    for (const { incident, monitor } of items) {
      const context = contexts.get(monitor.monitorId);
      if (!context?.imEnabled) continue;
      const route = effectiveImRoute(context.customer, context.monitor);
      if (route) await this.route(incident, monitor, route, tx);
    }
  }

  private async route(
    incident: Incident,
    monitor: MonitorNamed,
    route: NonNullable<ReturnType<typeof effectiveImRoute>>,
    tx: Transaction,
  ): Promise<void> {
    const scope = organizationScope(incident.organizationId);
    const now = this.clock.now();
    const origin = { monitorId: monitor.publicId, incidentId: incident.publicId };
    const details = {
      origin: 'monitor',
      ...origin,
      monitorName: monitor.name,
      reasonCode: incident.causeReasonCode,
      message: incident.causeMessage,
    };
    const dedupKey = monitorStormDedupKey(incident.customerId, route);
    await this.origins.retireQuietStorm(scope, dedupKey, new Date(now.getTime() - this.stormGapMs), tx);
    const candidate = ImIncident.trigger(
      {
        publicId: this.ids.uuid(),
        organizationId: incident.organizationId,
        title: incident.title,
        description: incident.causeMessage,
        severity: 'critical',
        source: 'monitor',
        teamId: route.teamId,
        customerId: incident.customerId,
        escalationPolicyId: route.escalationPolicyId,
        dedupKey,
        createdByUserId: null,
        now,
        monitorOrigin: origin,
      },
      details,
    );
    const { incident: routed } = await this.incidents.triggerOrOccur(scope, candidate, details, tx);
    await this.origins.link(scope, routed.id, origin, tx);
  }

  /** A person acknowledged the automatic incident: the open, still triggered IM incident standing for it is acknowledged by them too. */
  async acknowledged(incident: Incident, userId: string | null, tx: Transaction): Promise<void> {
    const scope = organizationScope(incident.organizationId);
    for (let attempt = 1; ; attempt++) {
      const routed = await this.incidents.readsIn(tx).findOpenByOrigin(scope, incident.publicId);
      if (!routed || routed.status !== 'triggered') return;
      routed.acknowledge(userId, incident.acknowledgedAt ?? this.clock.now());
      try {
        await this.incidents.save(scope, routed, tx);
        return;
      } catch (error) {
        if (!(isAppError(error) && error.code === 'imIncidentStatusConflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  /** One read finds the incidents an IM incident stands for; only those cost more. In order, so the last recovery of a storm resolves it. */
  async resolved(items: readonly RoutedIncident[], tx: Transaction): Promise<void> {
    if (items.length === 0) return;
    const routed = await this.origins.unrecoveredAmongIn(
      items.map((item) => item.incident.publicId),
      tx,
    );
    for (const { incident, monitor } of items) {
      if (routed.has(incident.publicId)) await this.recover(incident, monitor, tx);
    }
  }

  private async recover(incident: Incident, monitor: MonitorNamed, tx: Transaction): Promise<void> {
    const scope = organizationScope(incident.organizationId);
    const recovery = await this.origins.recovered(scope, incident.publicId, this.clock.now(), tx);
    // Others of its storm are still down: the IM incident stays open (a racing last recovery is swept up by resolveAllRecovered).
    if (!recovery || recovery.stillDown > 0) return;
    await this.resolveOpen(
      scope,
      recovery.incident.publicId,
      {
        origin: 'monitor',
        monitorId: monitor.publicId,
        incidentId: incident.publicId,
        reason: 'monitorRecovered',
      },
      tx,
    );
  }

  /**
   * Resolves open IM incidents whose engine incidents have all recovered though none resolved it:
   * two last recoveries that committed at once each saw the other still down. Answers how many.
   */
  async resolveAllRecovered(tx: Transaction, limit = 100): Promise<number> {
    let resolved = 0;
    for (const { scope, incident } of await this.origins.allRecoveredIn(limit, tx)) {
      if (await this.resolveOpen(scope, incident.publicId, { origin: 'monitor', reason: 'monitorRecovered' }, tx)) resolved += 1;
    }
    return resolved;
  }

  private async resolveOpen(scope: TenantScope, publicId: string, details: Record<string, unknown>, tx: Transaction): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const routed = await this.incidents.readsIn(tx).findByRef(scope, publicId);
      if (!routed || !routed.isOpen) return false;
      routed.resolve(null, this.clock.now(), details);
      try {
        await this.incidents.save(scope, routed, tx);
        return true;
      } catch (error) {
        // A stale version changes no row, so the transaction stays usable for the re-read.
        if (!(isAppError(error) && error.code === 'imIncidentStatusConflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
