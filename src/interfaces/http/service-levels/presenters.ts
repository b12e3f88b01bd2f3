import type { ObjectiveStatusView } from '../../../application/service-levels/get-objective-status';
import type { ServiceLevelObjective } from '../../../domain/service-levels/objective';

const rate = (value: number | null) => (value === null ? null : Number(value.toFixed(2)));

export const presentObjective = (o: ServiceLevelObjective) => ({
  id: o.publicId,
  name: o.name,
  target: o.target,
  window: o.window,
  timezone: o.timezone,
  customerId: o.customerId,
  subject:
    o.subject.type === 'monitor'
      ? { type: 'website' as const, websiteId: o.subject.monitorPublicId }
      : { type: 'customer' as const, customerId: o.subject.customerId, tagId: o.subject.tagId },
  alertsEnabled: o.alertsEnabled,
  burnState: o.burnState,
  burnChangedAt: o.burnChangedAt?.toISOString() ?? null,
  createdAt: o.createdAt.toISOString(),
  updatedAt: o.updatedAt.toISOString(),
});

export const presentStatus = (s: ObjectiveStatusView) => ({
  objective: presentObjective(s.objective),
  at: s.at.toISOString(),
  window: { from: s.span.from.toISOString(), to: s.span.to.toISOString(), end: s.span.end.toISOString() },
  monitors: s.monitors,
  ...s.level,
  burnRates: {
    '5m': rate(s.burnRates['5m']),
    '30m': rate(s.burnRates['30m']),
    '1h': rate(s.burnRates['1h']),
    '6h': rate(s.burnRates['6h']),
  },
  firing: s.firing,
});
