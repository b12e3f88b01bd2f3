import type { Area } from '../area';

/**
 * Sign-in and sign-up are drawn by the app itself (they need its session refresh); this area holds
 * the public screens reached by a link (an invitation) and the signed-in ones about the account.
 */
export const authArea: Area = { routes: [] };
