import { navigationChanged } from '../navigation-changes';
import { api } from '../../api/client';
import type { User } from '../../session';

/**
 * Whether incident management is on for the user's organization, as the API says it: GET
 * /api/im/on-call answers 200 where it is on, 403 imNotEnabled where it is off, 403 imAccessDenied
 * to roles that may not use it. The session does not carry it, so the first render asks once per
 * user and draws the navigation again when the answer comes.
 */
export type ImState = 'unknown' | 'on' | 'off' | 'denied';

const IM_ROLES = new Set(['admin', 'editor', 'responder']);
const states = new Map<string, ImState>();

/** Roles that can never use incident management are not asked about (customer-bound users, read-only users). */
export const mayUseIm = (user: User): boolean => user.customerId === null && IM_ROLES.has(user.role);

async function ask(user: User): Promise<void> {
  const { response, error } = await api.GET('/api/im/on-call');
  const code = (error as { data?: { code?: string } } | undefined)?.data?.code;
  const state: ImState = response.ok ? 'on' : code === 'imNotEnabled' ? 'off' : code === 'imAccessDenied' ? 'denied' : 'unknown';
  // No answer either way (the service failed): asked again at the next render.
  if (state === 'unknown') return void states.delete(user.id);
  states.set(user.id, state);
  navigationChanged();
}

/** What is known now; asks the API the first time (the answer redraws). */
export function imStateOf(user: User): ImState {
  if (!mayUseIm(user)) return 'denied';
  const known = states.get(user.id);
  if (known !== undefined) return known;
  states.set(user.id, 'unknown');
  ask(user).catch(() => states.delete(user.id));
  return 'unknown';
}
