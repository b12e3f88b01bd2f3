import type { Transaction } from '../shared/transaction';
import type { PageIncident, PageIncidentUpdate } from '../../domain/status-pages/page-incident';
import type { StatusPage } from '../../domain/status-pages/status-page';
import { token } from '../shared/token';

/** Who hears of a page incident's update (the page's subscribers); called inside the update's transaction. */
export interface PageIncidentNotices {
  /** `tx`: the transaction of the update (the notices commit with it). */
  updated(page: StatusPage, incident: PageIncident, update: PageIncidentUpdate, tx: Transaction): Promise<void>;
}
export const PAGE_INCIDENT_NOTICES = token<PageIncidentNotices>('PageIncidentNotices');
