import type { PublicIncident, PublicMaintenance, PublicStatusPage } from '../../../application/status-pages/public-status-page';

const incident = (i: PublicIncident) => ({
  id: i.id,
  title: i.title,
  status: i.status,
  origin: i.origin,
  componentIds: i.componentIds,
  startedAt: i.startedAt.toISOString(),
  resolvedAt: i.resolvedAt?.toISOString() ?? null,
  updates: i.updates.map((u) => ({ status: u.status, message: u.message, at: u.at.toISOString() })),
});

const maintenance = (m: PublicMaintenance) => ({
  id: m.id,
  title: m.title,
  description: m.description,
  startTime: m.start.toISOString(),
  endTime: m.end.toISOString(),
  componentIds: m.componentIds,
});

/** The public page as JSON: what the HTML shows, nothing of the page's settings beyond its look. */
export const presentPublicPage = (m: PublicStatusPage) => ({
  page: {
    id: m.page.publicId,
    title: m.page.title,
    slug: m.page.slug,
    description: m.page.description,
    footer: m.page.footer,
    brandColor: m.page.brandColor,
  },
  status: { state: m.state, description: m.headline },
  groups: m.groups.map((g) => ({
    name: g.name,
    state: g.state,
    components: g.components.map((c) => ({
      id: c.id,
      type: c.type,
      name: c.name,
      state: c.state,
      responseTimeMs: c.responseTimeMs,
      uptimePercent: c.uptimePercent,
      uptimeSince: c.uptimeSince?.toISOString() ?? null,
      days: c.days?.map((d) => ({ date: d.date, state: d.state, uptimePercent: d.uptimePercent })) ?? null,
    })),
  })),
  incidents: { active: m.activeIncidents.map(incident), past: m.pastIncidents.map(incident) },
  maintenance: { active: m.activeMaintenance.map(maintenance), scheduled: m.scheduledMaintenance.map(maintenance) },
  objectives: m.objectives.map((o) => ({
    id: o.id,
    name: o.name,
    subject: { type: o.subjectType, name: o.subjectName },
    target: o.target,
    window: o.window,
    windowStart: o.windowFrom.toISOString(),
    attainmentPercent: o.attainmentPercent,
    met: o.met,
  })),
  generatedAt: m.generatedAt.toISOString(),
});
