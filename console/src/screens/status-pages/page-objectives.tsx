import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import type { DraftObjective } from './draft';

type Objective = Schemas['ServiceLevelObjective'];

const WINDOW_WORDS: Record<string, string> = {
  rolling7d: 'last 7 days',
  rolling28d: 'last 28 days',
  rolling30d: 'last 30 days',
  calendarMonth: 'calendar month',
};

/** Every objective the caller can see (GET /api/service-levels, read whole a page of 200 at a time). */
async function loadObjectives(): Promise<Objective[]> {
  const all: Objective[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await ok(api.GET('/api/service-levels', { params: { query: { page, perPage: 200 } } }));
    all.push(...answer.items);
    if (all.length >= answer.total || answer.items.length === 0) return all;
  }
}

/**
 * The service level objectives whose attainment the page shows, in order: those of the page's
 * customer (a customer's page) or any of the organization's. Changes stay in the form until saved.
 */
export function PageObjectives({
  chosen,
  customerId,
  onChange,
  disabled,
  error,
}: {
  chosen: DraftObjective[];
  customerId: number | null;
  onChange: (objectives: DraftObjective[]) => void;
  disabled: boolean;
  error: string | undefined;
}) {
  const [offered, setOffered] = useState<Objective[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [choice, setChoice] = useState('');
  useEffect(() => {
    if (disabled) return;
    loadObjectives().then(
      (all) => setOffered(customerId === null ? all : all.filter((o) => o.customerId === customerId)),
      (reason: unknown) => setFailure(describe(reason)),
    );
  }, [customerId, disabled]);
  const used = new Set(chosen.map((o) => o.id));
  const add = () => {
    const objective = offered.find((o) => o.id === choice);
    if (!objective) return;
    onChange([...chosen, { id: objective.id, name: objective.name }]);
    setChoice('');
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...chosen];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <fieldset class="sp-objectives" disabled={disabled}>
      <legend>Service levels</legend>
      <p class="muted">The page shows each objective's attainment over its window, as the service levels API measures it.</p>
      {chosen.length === 0 ? <p class="muted">No objectives shown.</p> : null}
      <ul aria-label="Service levels shown on the page">
        {chosen.map((objective, i) => (
          <li key={objective.id}>
            <span>{objective.name}</span>
            <span class="sp-row-actions">
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${objective.name} up`}
                disabled={i === 0}
                onClick={() => move(i, -1)}
              >
                Up
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Move ${objective.name} down`}
                disabled={i === chosen.length - 1}
                onClick={() => move(i, 1)}
              >
                Down
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Remove ${objective.name} from the page`}
                onClick={() => onChange(chosen.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </span>
          </li>
        ))}
      </ul>
      {disabled ? null : (
        <div class="sp-inline">
          <Field label="Objective to show" id="sp-objective">
            <select id="sp-objective" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
              <option value="">Choose an objective…</option>
              {offered
                .filter((o) => !used.has(o.id))
                .map((o) => (
                  <option key={o.id} value={o.id}>
                    {`${o.name} (${o.target}% · ${WINDOW_WORDS[o.window] ?? o.window})`}
                  </option>
                ))}
            </select>
          </Field>
          <button type="button" onClick={add} disabled={choice === ''}>
            Add objective
          </button>
        </div>
      )}
      {error ? <p class="field-error">{error}</p> : null}
      <ErrorText message={failure} />
    </fieldset>
  );
}
