import { token } from '../../../application/shared/token';
/** What the status page routes need of the host's configuration (bound by the status-pages module). */
export interface StatusPageHttpSettings {
  /** PUBLIC_BASE_URL without a trailing slash: the pages' absolute addresses (feeds, links in messages). */
  readonly publicBaseUrl: string;
  /** Cookies carry Secure when the service is served over https. */
  readonly secureCookies: boolean;
  /** Seconds a browser or CDN may keep a public page (Cache-Control max-age). */
  readonly maxAgeSeconds: number;
}
export const STATUS_PAGE_HTTP_SETTINGS = token<StatusPageHttpSettings>('StatusPageHttpSettings');
