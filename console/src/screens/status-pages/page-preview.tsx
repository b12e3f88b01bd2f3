import type { Schemas } from '../../api/client';
import { dateTime, ms } from '../../components/format';
import { readsDark, shownName, STATE_WORDS, type Draft } from './draft';

export type PublicView = Schemas['PublicStatusPage'];
interface PublicIncident {
  id: string;
  title: string;
  status: string;
  updates: Array<{ message: string }>;
}
interface PublicMaintenance {
  id: string;
  title: string;
  startTime: string;
  endTime: string;
}

/**
 * The page as visitors will read it, drawn in the console from the form's unsaved values (title,
 * description, logo, colour, groups and their components, footer) and the states, incidents and
 * maintenance the public view (GET /api/public/status-pages/{slug}) tells of the saved page.
 * A component not saved yet has no state until it is.
 */
export function PagePreview({ draft, view, viewNote }: { draft: Draft; view: PublicView | null; viewNote: string | null }) {
  const states = new Map(view?.groups.flatMap((g) => g.components.map((c) => [c.id, c] as const)) ?? []);
  const color = /^#[0-9a-fA-F]{6}$/.test(draft.brandColor) ? draft.brandColor : '#1f2937';
  return (
    <section class="sp-preview" aria-labelledby="preview-title">
      <div class={`sp-preview-header ${readsDark(color) ? 'sp-on-light' : 'sp-on-dark'}`}>
        <svg aria-hidden="true" preserveAspectRatio="none">
          <rect width="100%" height="100%" fill={color} />
        </svg>
        {draft.logo ? <img class="sp-preview-logo" src={draft.logo} alt="" /> : null}
        <h3 id="preview-title">{draft.title || 'Untitled page'}</h3>
      </div>
      <div class="sp-preview-body">
        {draft.description ? <p>{draft.description}</p> : null}
        {view ? (
          <p>
            <strong class={`sp-state-${view.status.state}`}>{view.status.description}</strong>
          </p>
        ) : null}
        {viewNote ? <p class="muted">{viewNote}</p> : null}
        {(view?.incidents.active as PublicIncident[] | undefined)?.map((incident) => (
          <div key={incident.id}>
            <h4>{incident.title}</h4>
            <p class="muted">
              {STATUS_WORDS[incident.status] ?? incident.status} · {incident.updates.at(-1)?.message ?? ''}
            </p>
          </div>
        ))}
        {draft.groups.length === 0 ? <p class="muted">No components yet: add a group and its monitors.</p> : null}
        {draft.groups.map((group, gi) => (
          <div key={gi}>
            <h4>{group.name || 'Unnamed group'}</h4>
            <ul aria-label={`Preview of ${group.name || 'the unnamed group'}`}>
              {group.components.map((component) => {
                const known = states.get(component.id);
                return (
                  <li key={component.id}>
                    <span>{shownName(component)}</span>
                    {known ? (
                      <span class={`sp-state-${known.state}`}>
                        {STATE_WORDS[known.state] ?? known.state}
                        {draft.showResponseTimes && known.responseTimeMs !== null ? ` · ${ms(known.responseTimeMs)}` : ''}
                      </span>
                    ) : (
                      <span class="muted">State shown once saved</span>
                    )}
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
        {draft.objectives.length > 0 ? <h4>Service levels</h4> : null}
        {draft.objectives.map((objective) => {
          const measured = view?.objectives.find((o) => o.id === objective.id);
          return (
            <p key={objective.id} class="sp-preview-slo">
              <span>{objective.name}</span>
              {measured ? (
                <span class={measured.met === false ? 'sp-state-down' : measured.met ? 'sp-state-operational' : 'muted'}>
                  {measured.attainmentPercent === null
                    ? 'No data yet'
                    : `${measured.attainmentPercent}% of ${measured.target}% · ${measured.met ? 'met' : 'missed'}`}
                </span>
              ) : (
                <span class="muted">Attainment shown once saved</span>
              )}
            </p>
          );
        })}
        {view?.maintenance.scheduled.length ? <h4>Scheduled maintenance</h4> : null}
        {(view?.maintenance.scheduled as PublicMaintenance[] | undefined)?.map((m) => (
          <p key={m.id}>
            {m.title} <span class="muted">{`${dateTime(m.startTime)} – ${dateTime(m.endTime)}`}</span>
          </p>
        ))}
        {draft.footer ? <p class="muted">{draft.footer}</p> : null}
      </div>
    </section>
  );
}

const STATUS_WORDS: Record<string, string> = {
  investigating: 'Investigating',
  identified: 'Identified',
  monitoring: 'Monitoring',
  resolved: 'Resolved',
};
