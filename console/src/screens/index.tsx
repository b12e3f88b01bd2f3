import type { User } from '../session';
import { match } from '../router';
import type { Area, NavItem, ScreenRoute, SettingsItem } from './area';
import { accessArea } from './access/area';
import { authArea } from './auth/area';
import { brandingArea } from './branding/area';
import { statusPagesArea } from './status-pages/area';
import { channelsArea } from './channels/area';
import { customersArea } from './customers/area';
import { incidentsArea } from './incidents/area';
import { maintenanceArea } from './maintenance/area';
import { monitorsArea } from './monitors/area';
import { onCallArea } from './on-call/area';
import { orgAdminArea } from './org-admin/area';
import { serviceLevelsArea } from './service-levels/area';
import { ssoArea } from './sso/area';
import { OrganizationPage } from './organization/organization-page';

/** Every part of the console, one line each. */
const AREAS: readonly Area[] = [
  monitorsArea,
  incidentsArea,
  customersArea,
  onCallArea,
  statusPagesArea,
  channelsArea,
  maintenanceArea,
  authArea,
  brandingArea,
  orgAdminArea,
  accessArea,
  serviceLevelsArea,
  ssoArea,
];

/** The Organization page's links a user may follow, in order. */
export function settingsFor(user: User): SettingsItem[] {
  return AREAS.flatMap((area) => area.settings ?? [])
    .filter((item) => item.shownTo?.(user) ?? true)
    .sort((a, b) => a.order - b.order);
}

/** The Organization page lists the places every area puts there. */
const organizationArea: Area = {
  routes: [{ pattern: '/organization', render: (_, user) => <OrganizationPage places={settingsFor(user)} /> }],
  nav: [{ to: '/organization', label: 'Organization', order: 80 }],
};

const ROUTES: readonly ScreenRoute[] = [...AREAS, organizationArea].flatMap((area) => area.routes);

/** The screen for a path and its parameters, or null (not found). */
export function findScreen(path: string): { route: ScreenRoute; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    const params = match(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

/**
 * The place of the Organization page at a path that page hides from the user (`shownTo`): its
 * screen is not drawn for them either, as the API would refuse every call it makes.
 */
export function closedPlace(path: string, user: User): SettingsItem | undefined {
  return AREAS.flatMap((area) => area.settings ?? []).find((item) => item.to === path && item.shownTo !== undefined && !item.shownTo(user));
}

/** The main navigation's links a user may follow, in order. */
export function navigationFor(user: User): NavItem[] {
  return [...AREAS, organizationArea]
    .flatMap((area) => area.nav ?? [])
    .filter((item) => item.shownTo?.(user) ?? true)
    .sort((a, b) => a.order - b.order);
}
