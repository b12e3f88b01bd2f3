import { readableTextOn } from '../../../../src/domain/status-pages/readable-text';
import type { Schemas } from '../../api/client';

export type StatusPage = Schemas['StatusPage'];
export type PageComponent = StatusPage['groups'][number]['components'][number];
export interface DraftGroup {
  name: string;
  components: PageComponent[];
}

/** A service level objective the page shows. */
export interface DraftObjective {
  id: string;
  name: string;
}

/** The editor's unsaved values: what the form shows and the preview draws. */
export interface Draft {
  title: string;
  slug: string;
  description: string;
  brandColor: string;
  footer: string;
  showResponseTimes: boolean;
  logo: string | null;
  groups: DraftGroup[];
  /** Service level objectives shown, in order. */
  objectives: DraftObjective[];
  /** One address or CIDR a line; empty: anyone may read the page. */
  ipAllowlist: string;
  /** A new password ('' leaves it as it is); never shown back by the API. */
  password: string;
  removePassword: boolean;
}

export const draftOf = (page: StatusPage): Draft => ({
  title: page.title,
  slug: page.slug,
  description: page.description ?? '',
  brandColor: page.brandColor,
  footer: page.footer ?? '',
  showResponseTimes: page.showResponseTimes,
  logo: page.logo,
  groups: page.groups.map((g) => ({ name: g.name, components: [...g.components] })),
  objectives: page.objectives.map((o) => ({ id: o.id, name: o.name })),
  ipAllowlist: page.ipAllowlist.join('\n'),
  password: '',
  removePassword: false,
});

/** PATCH /api/status-pages/{id}'s body for a draft: groups replace every group. */
export const changeOf = (draft: Draft) => ({
  title: draft.title,
  slug: draft.slug,
  description: draft.description.trim() === '' ? null : draft.description,
  brandColor: draft.brandColor,
  footer: draft.footer.trim() === '' ? null : draft.footer,
  showResponseTimes: draft.showResponseTimes,
  logo: draft.logo,
  groups: draft.groups.map((g) => ({
    name: g.name,
    components: g.components.map((c) => ({ type: c.type, id: c.id, name: c.name })),
  })),
  objectives: draft.objectives.map((o) => o.id),
  ipAllowlist: draft.ipAllowlist
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== ''),
  ...(draft.removePassword ? { password: null } : draft.password !== '' ? { password: draft.password } : {}),
});

/** The name a component is shown by: its own on the page, else its record's. */
export const shownName = (c: PageComponent) => c.name ?? c.recordName;

/** Dark text on a colour (`#rrggbb`): the public page's own rule, the domain's function. */
export const readsDark = (color: string): boolean => readableTextOn(color) === '#000000';

export const STATE_WORDS: Record<string, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  maintenance: 'In maintenance',
  unknown: 'Unknown',
};
