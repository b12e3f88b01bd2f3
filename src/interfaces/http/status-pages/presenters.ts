import type { StatusPageView } from '../../../application/status-pages/page-view';
import type { PageIncidentView } from '../../../application/status-pages/page-incident-views';

/** The admin view of a page: its settings, never the password (only whether there is one). */
export const presentPage = ({ page, groups, objectives }: StatusPageView, publicBaseUrl: string) => ({
  id: page.publicId,
  publicId: page.publicId,
  customerId: page.customerId,
  title: page.title,
  slug: page.slug,
  url: `${publicBaseUrl}/status/${page.slug}`,
  description: page.description,
  logo: page.logo,
  brandColor: page.brandColor,
  groups: groups.map((g) => ({
    name: g.name,
    components: g.components.map((c) => ({ type: c.type, id: c.id, name: c.name, recordName: c.recordName })),
  })),
  showResponseTimes: page.showResponseTimes,
  footer: page.footer,
  ipAllowlist: [...page.ipAllowlist],
  objectives: objectives.map((o) => ({ id: o.id, name: o.name })),
  passwordProtected: page.passwordHash !== null,
  isPrivate: page.isPrivate,
  createdAt: page.createdAt.toISOString(),
  updatedAt: page.updatedAt.toISOString(),
});

export const presentPageIncident = ({ incident, componentIds }: PageIncidentView) => ({
  id: incident.publicId,
  incidentId: incident.incidentPublicId,
  title: incident.title,
  status: incident.status,
  componentIds: [...componentIds],
  updates: incident.updates.map((u) => ({ status: u.status, message: u.message, createdAt: u.createdAt.toISOString() })),
  createdAt: incident.createdAt.toISOString(),
  updatedAt: incident.updatedAt.toISOString(),
  resolvedAt: incident.resolvedAt?.toISOString() ?? null,
});
