import { pageHeading } from '../../../domain/status-pages/status-page';
import { readableTextOn, type StatusPage } from '../../../domain/status-pages/status-page';
import type { ComponentState, DayBar } from '../../../domain/status-pages/component-status';
import type {
  PublicComponent,
  PublicIncident,
  PublicMaintenance,
  PublicObjective,
  PublicStatusPage,
} from '../../../application/status-pages/public-status-page';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const STATE_TEXT: Record<ComponentState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  maintenance: 'Maintenance',
  unknown: 'Unknown',
};
const UPDATE_TEXT = { investigating: 'Investigating', identified: 'Identified', monitoring: 'Monitoring', resolved: 'Resolved' } as const;

// Every colour keeps 4.5:1 or better against the white background (WCAG AA for text).
const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff}
header{padding:1.25rem 1rem}header img{max-height:48px;vertical-align:middle;margin-right:.75rem}header h1{display:inline;font-size:1.5rem;vertical-align:middle}
main{max-width:52rem;margin:0 auto;padding:1rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}h3{font-size:1.05rem;margin:1rem 0 .25rem}
.banner{padding:1rem;border-radius:6px;color:#fff;font-size:1.2rem;font-weight:600;margin:0}
.b-operational{background:#1a7f37}.b-degraded{background:#9a6700}.b-down{background:#cf222e}.b-maintenance{background:#0969da}.b-unknown{background:#57606a}
ul{list-style:none;padding:0;margin:0}li.c{border:1px solid #d0d7de;border-radius:6px;padding:.5rem .75rem;margin:.4rem 0}
.n{font-weight:600}.st{float:right;font-weight:600}.s-operational{color:#1a7f37}.s-degraded{color:#9a6700}.s-down{color:#cf222e}.s-maintenance{color:#0969da}.s-unknown{color:#57606a}
.rt,.up,.muted{color:#57606a;font-size:.85rem}svg.bars{display:block;width:100%;height:28px;margin:.35rem 0 .1rem}
.bars rect{y:0;height:28px}.bars .u{fill:#2da44e}.bars .g{fill:#bf8700}.bars .d{fill:#cf222e}.bars .m{fill:#0969da}.bars .n{fill:#d0d7de}
article{border-left:4px solid #d0d7de;padding:.25rem .75rem;margin:.75rem 0}article.open{border-color:#cf222e}article.m{border-color:#0969da}
ol{padding-left:1rem;margin:.25rem 0}time{color:#57606a;font-size:.85rem}footer{max-width:52rem;margin:2rem auto;padding:1rem;color:#57606a;border-top:1px solid #d0d7de}
a{color:#0969da}label{display:block;margin:.5rem 0}input{font:inherit;padding:.4rem}button{font:inherit;padding:.4rem 1rem}.err{color:#cf222e}`;

const time = (d: Date) => `<time datetime="${d.toISOString()}">${d.toISOString().replace('T', ' ').slice(0, 16)} UTC</time>`;

/** One-letter classes keep the bars small: a page of 50 components must stay well under 100 KB. */
const DAY_CLASS: Record<DayBar['state'], string> = { up: 'u', degraded: 'g', down: 'd', maintenance: 'm', unknown: 'n' };

function bars(days: readonly DayBar[]): string {
  // The most common state is one background rectangle; runs of other days are drawn over it.
  const counts = new Map<DayBar['state'], number>();
  for (const d of days) counts.set(d.state, (counts.get(d.state) ?? 0) + 1);
  const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'unknown';
  let out = `<rect width="${days.length * 4 - 1}" class="${DAY_CLASS[background]}"/>`;
  let i = 0;
  while (i < days.length) {
    let j = i;
    while (j + 1 < days.length && days[j + 1]!.state === days[i]!.state) j += 1;
    if (days[i]!.state !== background) out += `<rect x="${i * 4}" width="${(j - i + 1) * 4 - 1}" class="${DAY_CLASS[days[i]!.state]}"/>`;
    i = j + 1;
  }
  const count = (s: DayBar['state']) => counts.get(s) ?? 0;
  const label =
    `Last ${days.length} days: ${count('up') + count('degraded')} up, ${count('down')} with downtime, ` +
    `${count('maintenance')} with maintenance, ${count('unknown')} unknown`;
  return `<svg class="bars" role="img" aria-label="${label}" viewBox="0 0 ${days.length * 4 - 1} 28" preserveAspectRatio="none">${out}</svg>`;
}

function component(c: PublicComponent): string {
  return (
    `<li class="c" data-component="${c.id}" data-state="${c.state}"><span class="n">${esc(c.name)}</span>` +
    `<span class="st s-${c.state}">${STATE_TEXT[c.state]}</span>` +
    (c.responseTimeMs !== null ? ` <span class="rt">${c.responseTimeMs} ms</span>` : '') +
    (c.days
      ? bars(c.days) +
        `<span class="up">${
          c.uptimePercent === null
            ? 'No data yet'
            : `${c.uptimePercent}% uptime ${c.uptimeSince ? `since ${c.uptimeSince.toISOString().slice(0, 10)}` : 'over 90 days'}`
        }</span>`
      : '') +
    '</li>'
  );
}

function incident(i: PublicIncident): string {
  return (
    `<article class="${i.resolvedAt ? '' : 'open'}" data-incident="${i.id}"><h3>${esc(i.title)}</h3><p class="muted">${UPDATE_TEXT[i.status]} · started ${time(i.startedAt)}</p><ol>` +
    i.updates.map((u) => `<li><strong>${UPDATE_TEXT[u.status]}</strong> – ${esc(u.message)} ${time(u.at)}</li>`).join('') +
    '</ol></article>'
  );
}

const WINDOW_TEXT: Record<string, string> = {
  rolling7d: 'last 7 days',
  rolling28d: 'last 28 days',
  rolling30d: 'last 30 days',
  calendarMonth: 'this month',
};

const objective = (o: PublicObjective) =>
  `<li class="c" data-objective="${o.id}" data-met="${o.met === null ? 'unknown' : String(o.met)}"><span class="n">${esc(o.name)}</span>` +
  `<span class="st ${o.met === null ? 's-unknown' : o.met ? 's-operational' : 's-down'}">${
    o.attainmentPercent === null ? 'No data yet' : `${o.attainmentPercent}%`
  }</span><br><span class="muted">${esc(o.subjectName)} · target ${o.target}% · ${esc(WINDOW_TEXT[o.window] ?? o.window)}` +
  `${o.met === null ? '' : o.met ? ' · met' : ' · missed'}</span></li>`;

const maintenance = (m: PublicMaintenance) =>
  `<article class="m" data-maintenance="${m.id}"><h3>${esc(m.title)}</h3><p class="muted">${time(m.start)} – ${time(m.end)}</p>` +
  (m.description ? `<p>${esc(m.description)}</p>` : '') +
  '</article>';

function shell(page: StatusPage, base: string, body: string): string {
  const fg = readableTextOn(page.brandColor);
  const logo = page.logo ? `<img src="${esc(page.logo)}" alt="${esc(page.title)} logo">` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${esc(pageHeading(page.title))}</title><style>${STYLE}</style>` +
    `<link rel="alternate" type="application/atom+xml" title="${esc(page.title)} incidents" href="${base}/feed.atom"></head><body>` +
    `<header style="background:${page.brandColor};color:${fg}">${logo}<h1>${esc(page.title)}</h1></header><main>${body}</main>` +
    `<footer>${page.footer ? `<p>${esc(page.footer)}</p>` : ''}<p><a href="${base}/feed.atom">Atom feed</a> · <a href="${base}/index.json">JSON</a></p></footer></body></html>`
  );
}

/** The public page: readable without JavaScript or any external asset; `base` is where the page answers (/status/{slug}, or '' on its own domain). */
export function renderPublicHtml(m: PublicStatusPage, base: string): string {
  const sections = [
    `<section aria-labelledby="now"><h2 id="now" class="banner b-${m.state}" data-page-state="${m.state}">${esc(m.headline)}</h2>` +
      (m.page.description ? `<p>${esc(m.page.description)}</p>` : '') +
      `<p class="muted">Updated ${time(m.generatedAt)}</p></section>`,
  ];
  if (m.activeIncidents.length > 0)
    sections.push(`<section aria-labelledby="ai"><h2 id="ai">Active incidents</h2>${m.activeIncidents.map(incident).join('')}</section>`);
  if (m.activeMaintenance.length > 0)
    sections.push(
      `<section aria-labelledby="am"><h2 id="am">Maintenance in progress</h2>${m.activeMaintenance.map(maintenance).join('')}</section>`,
    );
  sections.push(
    `<section aria-labelledby="cs"><h2 id="cs">Components</h2>${m.groups
      .map(
        (g) =>
          `<h3>${esc(g.name)} <span class="st s-${g.state}">${STATE_TEXT[g.state]}</span></h3><ul>${g.components.map(component).join('')}</ul>`,
      )
      .join('')}</section>`,
  );
  if (m.objectives.length > 0)
    sections.push(
      `<section aria-labelledby="sl"><h2 id="sl">Service levels</h2><ul>${m.objectives.map(objective).join('')}</ul></section>`,
    );
  const upcoming = m.scheduledMaintenance.filter(
    (s) => !m.activeMaintenance.some((a) => a.id === s.id && a.start.getTime() === s.start.getTime()),
  );
  if (upcoming.length > 0)
    sections.push(`<section aria-labelledby="sm"><h2 id="sm">Scheduled maintenance</h2>${upcoming.map(maintenance).join('')}</section>`);
  sections.push(
    `<section aria-labelledby="pi"><h2 id="pi">Past incidents</h2>${
      m.pastIncidents.length > 0 ? m.pastIncidents.map(incident).join('') : '<p>No incidents in the last 90 days.</p>'
    }</section>`,
  );
  sections.push(
    `<section aria-labelledby="sub"><h2 id="sub">Get notified</h2><form method="post" action="${base}/subscribe">` +
      '<label for="email">E-mail address for incident and maintenance updates</label>' +
      '<input id="email" name="email" type="email" required autocomplete="email"> <button type="submit">Subscribe</button></form></section>',
  );
  return shell(m.page, base, sections.join(''));
}

/** The form a password-protected page shows instead of its content. */
export function renderPasswordForm(page: StatusPage, base: string, wrong: boolean): string {
  return shell(
    page,
    base,
    `<section aria-labelledby="pw"><h2 id="pw">This status page is private</h2>` +
      (wrong ? '<p class="err" role="alert">Wrong password, try again.</p>' : '') +
      `<form method="post" action="${base}/login"><label for="password">Password</label>` +
      '<input id="password" name="password" type="password" required autocomplete="current-password"> <button type="submit">Show status</button></form></section>',
  );
}

/** A small page for a missing page or a refused visitor. */
export const renderMessage = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title><style>${STYLE}</style></head>` +
  `<body><main><h1>${esc(title)}</h1><p>${esc(text)}</p></main></body></html>`;
