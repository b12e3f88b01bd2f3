import { HostBranding } from '../../application/custom-domains/host-branding';
import { defineFront } from './context-module';

/**
 * The console's page dressed in a white-label domain's accent (its `theme-color`), decided once the
 * host is resolved and cookies are parsed, before the console host serves the page.
 */
export const consoleThemeFront = defineFront({
  needs: { hostBranding: HostBranding },
  build: async (use) => {
    const { consoleTheme } = await import('../../interfaces/http/custom-domains/console-theme.js');
    return { parsed: [consoleTheme(use.hostBranding)] };
  },
});
