import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { PolicyForm, type Directory } from './policy-form';
import type { People } from './people';
import { useLoaded } from './use-loaded';

type Policy = Schemas['EscalationPolicy'];

/** Escalation policies (/api/escalation-config): who is paged, level after level, until someone acknowledges. */
export function EscalationPolicies({ people }: { people: People }) {
  const { data, error, reload } = useLoaded(async () => {
    const [policies, schedules, teams] = await Promise.all([
      ok(api.GET('/api/escalation-config', { params: { query: { perPage: 200 } } })),
      ok(api.GET('/api/im/schedules', { params: { query: { perPage: 200 } } })),
      ok(api.GET('/api/im/teams', { params: { query: { perPage: 200 } } })),
    ]);
    return { policies: policies.items, directory: { schedules: schedules.items, teams: teams.items } as Directory };
  });
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  if (!data) return error ? <ErrorText message={error} /> : <p role="status">Loading escalation policies…</p>;
  const targetName = (t: Policy['levels'][number]['targets'][number]) =>
    t.type === 'user'
      ? people.nameOf(t.id)
      : `${t.type === 'schedule' ? 'whoever is on call in' : 'team'} ${(t.type === 'schedule' ? data.directory.schedules : data.directory.teams).find((x) => x.id === t.id)?.name ?? t.id}`;
  return (
    <>
      <ErrorText message={error} />
      {data.policies.length === 0 ? <p>No escalation policies yet.</p> : null}
      <ul class="cards" aria-label="Escalation policies">
        {data.policies.map((p) => (
          <li key={p.id} class="panel">
            <strong>{p.name}</strong>
            {p.description ? <span class="muted"> — {p.description}</span> : null}
            <ol class="policy-levels">
              {p.levels.map((level, i) => (
                <li key={i}>
                  Page {level.targets.map(targetName).join(', ')}; {level.delayMinutes} min to acknowledge
                  {i + 1 < p.levels.length ? ' before the next level' : ''}
                </li>
              ))}
            </ol>
            <p class="muted">
              {p.repeatCount === 0
                ? 'The chain runs once.'
                : `The chain runs again ${p.repeatCount} more time${p.repeatCount === 1 ? '' : 's'}.`}
            </p>
            <button type="button" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
              Edit
            </button>
          </li>
        ))}
      </ul>
      {editing === null ? (
        <button type="button" onClick={() => setEditing('new')}>
          New escalation policy
        </button>
      ) : (
        <PolicyForm
          key={editing === 'new' ? 'new' : editing.id}
          policy={editing === 'new' ? null : editing}
          people={people}
          directory={data.directory}
          onDone={async () => {
            setEditing(null);
            await reload();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
    </>
  );
}
