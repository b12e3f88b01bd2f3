import { AppError } from '../shared/app-error';
import { cidrContains, parseCidr } from '../shared/network/cidr';
import { parseIpAddress } from '../shared/network/ip-address';

/** What a component shows: one monitor of any kind, a watched customer domain, or a watched customer IP. */
export const COMPONENT_TYPES = ['monitor', 'customerDomain', 'customerIp'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

/** A component resolved to the record (internal id) it names; `name` overrides the record's own label. */
export interface PageComponent {
  readonly type: ComponentType;
  readonly id: number;
  readonly name: string | null;
}

export interface ComponentGroup {
  readonly name: string;
  readonly components: readonly PageComponent[];
}

export const componentKey = (c: { type: ComponentType; id: number }): string => `${c.type}:${c.id}`;

/** Everything a caller defines about a page (the body of a create, resolved). */
export interface StatusPageDefinition {
  title: string;
  slug: string;
  description: string | null;
  /** A `data:image/...;base64,` URL (size-limited at the edge) or null. */
  logo: string | null;
  /** `#rrggbb`: the header's colour; the text on it is chosen for contrast. */
  brandColor: string;
  groups: ComponentGroup[];
  showResponseTimes: boolean;
  /** Plain text shown at the bottom (no HTML). */
  footer: string | null;
  /** CIDRs allowed to read a private page; empty = anyone (subject to the password). */
  ipAllowlist: string[];
  /** Service level objectives (internal ids) whose attainment the page shows, in display order. */
  objectives: number[];
}

export interface StatusPageProps extends StatusPageDefinition {
  id: number;
  publicId: string;
  organizationId: number;
  /** The customer that owns the page, or null for an organization page. */
  customerId: number | null;
  /** Hash of the visitors' password (PasswordHasher), or null for a page without one. */
  passwordHash: string | null;
  /** Random key of the visitors' access cookie; replaced whenever the password changes, which signs everyone out. */
  accessSecret: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
  /**
   * The hostname of the active custom domain that serves the page at its root, if any (set by the
   * custom domains, read here): links sent to subscribers point there.
   */
  customDomain?: string | null;
}

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const MAX_COMPONENTS = 200;
export const MAX_OBJECTIVES = 20;

/**
 * A public (or private) status page: chosen components in named groups, its look, and who may read it.
 * The page answers at /status/{slug}; a password or an IP allowlist makes it private.
 */
export class StatusPage implements StatusPageProps {
  id!: number;
  publicId!: string;
  organizationId!: number;
  customerId!: number | null;
  title!: string;
  slug!: string;
  description!: string | null;
  logo!: string | null;
  brandColor!: string;
  groups!: ComponentGroup[];
  showResponseTimes!: boolean;
  footer!: string | null;
  ipAllowlist!: string[];
  objectives!: number[];
  passwordHash!: string | null;
  accessSecret!: string;
  createdAt!: Date;
  updatedAt!: Date;
  version!: number;
  customDomain: string | null = null;

  constructor(props: StatusPageProps) {
    Object.assign(this, props);
  }

  static create(
    input: Omit<StatusPageProps, 'id' | 'version' | 'createdAt' | 'updatedAt' | 'objectives'> & { objectives?: number[] },
    now: Date,
  ): StatusPage {
    const props = { ...input, objectives: input.objectives ?? [] };
    assertDefinition(props);
    return new StatusPage({ ...props, id: 0, version: 1, createdAt: now, updatedAt: now });
  }

  /** A partial change; the definition rules hold for the result. */
  change(change: Partial<StatusPageDefinition>, now: Date): void {
    const next = { ...this.definition, ...change };
    assertDefinition(next);
    Object.assign(this, next, { updatedAt: now });
  }

  /** A new password (hash) or none; the access secret rotates, so earlier visitors must sign in again. */
  setPassword(passwordHash: string | null, newSecret: string, now: Date): void {
    this.passwordHash = passwordHash;
    this.accessSecret = newSecret;
    this.updatedAt = now;
  }

  get definition(): StatusPageDefinition {
    return {
      title: this.title,
      slug: this.slug,
      description: this.description,
      logo: this.logo,
      brandColor: this.brandColor,
      groups: this.groups,
      showResponseTimes: this.showResponseTimes,
      footer: this.footer,
      ipAllowlist: this.ipAllowlist,
      objectives: this.objectives,
    };
  }

  get isPrivate(): boolean {
    return this.passwordHash !== null || this.ipAllowlist.length > 0;
  }

  get components(): PageComponent[] {
    return this.groups.flatMap((g) => g.components);
  }

  /** Whether a visitor from this address may read the page (before any password). */
  admitsAddress(ip: string | undefined): boolean {
    if (this.ipAllowlist.length === 0) return true;
    const address = ip ? parseIpAddress(ip) : null;
    if (!address) return false;
    return this.ipAllowlist.some((text) => {
      const cidr = parseCidr(text);
      return cidr !== null && cidrContains(cidr, address);
    });
  }
}

function assertDefinition(d: StatusPageDefinition): void {
  if (!SLUG.test(d.slug))
    throw new AppError('validationFailed', { field: 'slug' }, 'slug: lowercase letters, digits and inner hyphens, 1-64 characters');
  if (!/^#[0-9a-fA-F]{6}$/.test(d.brandColor))
    throw new AppError('validationFailed', { field: 'brandColor' }, 'brandColor must be #rrggbb');
  for (const cidr of d.ipAllowlist) {
    if (!parseCidr(cidr)) throw new AppError('validationFailed', { field: 'ipAllowlist' }, `Not an IP address or CIDR: ${cidr}`);
  }
  const keys = d.groups.flatMap((g) => g.components.map(componentKey));
  if (keys.length > MAX_COMPONENTS) throw new AppError('validationFailed', { field: 'groups' }, `At most ${MAX_COMPONENTS} components`);
  if (new Set(keys).size !== keys.length)
    throw new AppError('validationFailed', { field: 'groups' }, 'A component appears at most once on a page');
  if (d.objectives.length > MAX_OBJECTIVES)
    throw new AppError('validationFailed', { field: 'objectives' }, `At most ${MAX_OBJECTIVES} objectives`);
  if (new Set(d.objectives).size !== d.objectives.length)
    throw new AppError('validationFailed', { field: 'objectives' }, 'An objective appears at most once on a page');
}

export { readableTextOn } from './readable-text';

/**
 * The heading a page goes by in titles and feeds: its title, with " status" added only when the
 * title does not already say it ("Acme" -> "Acme status"; "Acme Status" stays as it is).
 */
export function pageHeading(title: string): string {
  return /\bstatus\s*$/i.test(title.trim()) ? title.trim() : `${title.trim()} status`;
}
