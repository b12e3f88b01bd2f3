import type { RequestHandler } from 'express';
import type { HostBranding } from '../../../application/custom-domains/host-branding';
import { isConsolePage } from '../console/console-host';
import { customDomainOf, setPageThemeColor } from '../shared/http-context';

const COLOR = /^#[0-9a-f]{6}$/i;

/**
 * The console's page under an active white-label custom domain wears the organization's accent
 * colour as its theme colour (the page's `theme-color`), as the manifest there does; anywhere else
 * (or with no accent) the platform's. Only the page's requests ask: assets and icons are the same
 * on every host.
 */
export const consoleTheme =
  (branding: Pick<HostBranding, 'of'>): RequestHandler =>
  async (req, res, next) => {
    try {
      const host = customDomainOf(res);
      if (host?.kind !== 'whiteLabel' || (req.method !== 'GET' && req.method !== 'HEAD') || !isConsolePage(req.path)) return next();
      const { accentColor } = await branding.of(host);
      if (accentColor && COLOR.test(accentColor)) setPageThemeColor(res, accentColor.toLowerCase());
      next();
    } catch (error) {
      next(error);
    }
  };
