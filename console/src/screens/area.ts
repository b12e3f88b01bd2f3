import type { VNode } from 'preact';
import type { User } from '../session';

/** One screen: the path it answers (`/monitors/:kind/:id`) and what it draws for its parameters. */
export type ScreenRoute =
  | { readonly pattern: string; readonly public?: false; readonly render: (params: Record<string, string>, user: User) => VNode }
  /** Also shown to visitors who are not signed in (accepting an invitation): `user` is null for them. */
  | { readonly pattern: string; readonly public: true; readonly render: (params: Record<string, string>, user: User | null) => VNode };

/** A place in the main navigation. `order` sorts the links; `shownTo` hides it from some users. */
export interface NavItem {
  readonly to: string;
  readonly label: string;
  readonly order: number;
  readonly shownTo?: (user: User) => boolean;
}

/**
 * A part of the console (monitors, incidents, status pages, ...): its screens and its links. Each
 * lives in `screens/<area>/area.tsx` and is listed once in `screens/index.ts`; screens other than
 * the first view are loaded lazily (`components/lazy.tsx`).
 */
export interface Area {
  readonly routes: readonly ScreenRoute[];
  readonly nav?: readonly NavItem[];
  /** Links on the Organization page (`/organization`): users, tokens, audit log, billing, ... */
  readonly settings?: readonly SettingsItem[];
}

/** A place listed on the Organization page, with a line saying what is there. */
export interface SettingsItem extends NavItem {
  readonly description: string;
}
