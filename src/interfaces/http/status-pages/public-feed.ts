import { pageHeading } from '../../../domain/status-pages/status-page';
import type { ComponentState } from '../../../domain/status-pages/component-status';
import type { PublicStatusPage } from '../../../application/status-pages/public-status-page';
import { esc } from './public-html';

/** Incidents and maintenance of the page as an Atom feed (RFC 4287), newest first; `self` is the feed's absolute URL. */
export function renderAtom(m: PublicStatusPage, self: string, pageUrl: string): string {
  const entries = [
    ...[...m.activeIncidents, ...m.pastIncidents].map((i) => ({
      id: i.id,
      title: `${i.title} (${i.status})`,
      updated: i.updates[0]?.at ?? i.startedAt,
      text: i.updates.map((u) => `${u.at.toISOString()} ${u.status}: ${u.message}`).join('\n'),
    })),
    ...m.scheduledMaintenance.map((s) => ({
      id: s.id,
      title: `Maintenance: ${s.title}`,
      updated: s.start,
      text: `${s.start.toISOString()} – ${s.end.toISOString()}${s.description ? `\n${s.description}` : ''}`,
    })),
  ]
    .sort((a, b) => b.updated.getTime() - a.updated.getTime())
    .slice(0, 50);
  const updated = entries[0]?.updated ?? m.page.updatedAt;
  return (
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">` +
    `<id>urn:uuid:${m.page.publicId}</id><title>${esc(pageHeading(m.page.title))}</title><updated>${updated.toISOString()}</updated>` +
    `<link rel="self" href="${esc(self)}"/><link rel="alternate" href="${esc(pageUrl)}"/>` +
    entries
      .map(
        (e) =>
          `<entry><id>urn:uuid:${e.id}:${e.updated.getTime()}</id><title>${esc(e.title)}</title>` +
          `<updated>${e.updated.toISOString()}</updated><link href="${esc(pageUrl)}"/><author><name>${esc(m.page.title)}</name></author>` +
          `<content type="text">${esc(e.text)}</content></entry>`,
      )
      .join('') +
    '</feed>'
  );
}

const BADGE: Record<ComponentState, { text: string; color: string }> = {
  operational: { text: 'operational', color: '#1a7f37' },
  degraded: { text: 'degraded', color: '#9a6700' },
  down: { text: 'outage', color: '#cf222e' },
  maintenance: { text: 'maintenance', color: '#0969da' },
  unknown: { text: 'unknown', color: '#57606a' },
};

/** A shields-style badge of the page's overall state, with its text as the accessible name. */
export function renderBadge(m: PublicStatusPage): string {
  const { text, color } = BADGE[m.state];
  const left = 'status';
  const lw = 6 * left.length + 12;
  const rw = 7 * text.length + 12;
  const label = `${m.page.title}: ${m.headline}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
    `<rect width="${lw}" height="20" fill="#444d56"/><rect x="${lw}" width="${rw}" height="20" fill="${color}"/>` +
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="6" y="14">${left}</text>` +
    `<text x="${lw + 6}" y="14">${text}</text></g></svg>`
  );
}
