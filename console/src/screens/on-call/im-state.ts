import type { User } from '../../session';

/**
 * Whether incident management is on for the user, as the session says it (GET
 * /api/auth/get-session's `incidentManagement`, what the IM gate would answer them): `on`, `off`
 * (their role may use it, the organization has it off) or `denied` (their role may not). No IM
 * route is called unless it is `on`, so none is refused.
 */
export type ImState = 'on' | 'off' | 'denied';

export function imStateOf(user: User): ImState {
  if (user.incidentManagement === 'enabled') return 'on';
  return user.incidentManagement === 'notEnabled' ? 'off' : 'denied';
}
