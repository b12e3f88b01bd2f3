/**
 * The User-Agent every check sends unless a monitor sets its own: the product token from the
 * package name ("monitoring-service" -> "MonitoringService") and version, and the instance's public
 * URL as the contact, in the form crawlers use (`Name/1.0.0 (+https://status.example.com)`), so a
 * site's operator sees who checks them and where to look. Firewalls and CDNs often refuse requests
 * that carry no User-Agent at all.
 */
export function checkUserAgent(packageName: string, version: string, publicBaseUrl: string): string {
  const product =
    packageName
      .replace(/^@[^/]*\//, '')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('') || 'Monitoring';
  const cleanVersion = version.replace(/[^A-Za-z0-9.+-]/g, '') || '0';
  return `${product}/${cleanVersion} (+${publicBaseUrl.replace(/[()\s]/g, '')})`;
}
