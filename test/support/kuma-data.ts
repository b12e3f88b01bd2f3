import type { KumaData } from '../../src/interfaces/cli/import/uptime-kuma';

/** An Uptime Kuma database with nothing in it: a test spreads the tables it fills over it. */
export const EMPTY_KUMA: KumaData = {
  monitors: [],
  tags: [],
  monitorTags: [],
  notifications: [],
  monitorNotifications: [],
  maintenances: [],
  monitorMaintenances: [],
  pages: [],
  groups: [],
  monitorGroups: [],
};
