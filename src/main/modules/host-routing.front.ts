import { ActiveHosts } from '../../application/custom-domains/active-hosts';
import { PROBE_PATHS } from '../../interfaces/http/identity/probes.router';
import { publicPageNeeds } from '../../interfaces/http/status-pages/public-page-needs';
import { ORM } from '../tokens';
import { defineFront } from './context-module';

/**
 * The custom domains' host routing, with the status pages it serves: a request's host resolved
 * after the URL checks (health probes bypass it), then public status page views answered before
 * the parsers (they skip everything up to the routes), and, once bodies and cookies are parsed, a
 * status page host answering every path with its page. Its handlers load when the HTTP host is
 * built (they parse cookies), so a host without HTTP never loads them.
 */
export const hostRoutingFront = defineFront({
  needs: { ...publicPageNeeds, activeHosts: ActiveHosts, orm: ORM },
  build: async (use, { config }) => {
    const [{ customDomainRouting }, { publicStatusPageHost }, { publicStatusPageViews }] = await Promise.all([
      import('../../interfaces/http/custom-domains/host-routing.js'),
      import('../../interfaces/http/custom-domains/status-page-host.js'),
      import('../../interfaces/http/status-pages/public-views.js'),
    ]);
    const hostRouting = customDomainRouting({
      canonicalHostname: new URL(config.publicBaseUrl).hostname.toLowerCase(),
      trustProxy: config.trustProxy,
      find: (hostname) => use.activeHosts.find(hostname),
      bypassPaths: PROBE_PATHS,
      statusPageHost: publicStatusPageHost(use),
    });
    return {
      hosts: [hostRouting.resolve, publicStatusPageViews(use, hostRouting.serveStatusPages)],
      parsed: [hostRouting.serveStatusPages],
    };
  },
});
