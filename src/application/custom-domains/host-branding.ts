import type { ActiveHost, OrganizationLooks } from './ports';

/** How the console dresses itself under the host a visitor came by. */
export type HostBrand =
  | { readonly whiteLabel: false; readonly name: null; readonly accentColor: null; readonly logo: null }
  | { readonly whiteLabel: true; readonly name: string; readonly accentColor: string | null; readonly logo: string | null };

const PLATFORM: HostBrand = { whiteLabel: false, name: null, accentColor: null, logo: null };

/**
 * GET /api/branding: on an active white-label host, the organization's name, accent colour and logo
 * (public: the sign-in page needs them); anywhere else (the platform's host, a status page host) the
 * platform's own look, told by `whiteLabel: false`.
 */
export class HostBranding {
  constructor(private readonly looks: OrganizationLooks) {}

  async of(host: ActiveHost | undefined): Promise<HostBrand> {
    if (host?.kind !== 'whiteLabel') return PLATFORM;
    const look = await this.looks.find(host.organizationId);
    if (!look) return PLATFORM;
    return { whiteLabel: true, name: look.name, accentColor: look.accentColor, logo: look.logo };
  }
}
