import type { Provided } from '../../../application/shared/token';
import { GetPublicStatusPage } from '../../../application/status-pages/get-public-status-page';
import { ManageSubscription } from '../../../application/status-pages/manage-subscription';
import { SignInToStatusPage } from '../../../application/status-pages/sign-in-to-status-page';
import { SubscribeToStatusPage } from '../../../application/status-pages/subscribe-to-status-page';
import { STATUS_PAGE_HTTP_SETTINGS } from './settings';

/**
 * What a status page answers its visitors with, wherever it answers (under /status/{slug}, before the
 * route table, or on its own domain): the page, its settings, subscriptions and the password form.
 */
export const publicPageNeeds = {
  getPublicStatusPage: GetPublicStatusPage,
  statusPageHttpSettings: STATUS_PAGE_HTTP_SETTINGS,
  subscribeToStatusPage: SubscribeToStatusPage,
  manageSubscription: ManageSubscription,
  signInToStatusPage: SignInToStatusPage,
};

export type PublicPageUse = Provided<typeof publicPageNeeds>;
