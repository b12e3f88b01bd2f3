import { api, ok } from '../../api/client';
import { ErrorText } from '../../components/field';
import type { People } from './people';
import { useLoaded } from './use-loaded';

/** Teams (GET /api/im/teams) and their members with their role in the team. */
export function Teams({ people }: { people: People }) {
  const { data, error } = useLoaded(() => ok(api.GET('/api/im/teams', { params: { query: { perPage: 200 } } })));
  if (!data) return error ? <ErrorText message={error} /> : <p role="status">Loading teams…</p>;
  if (data.items.length === 0) return <p>No teams yet.</p>;
  return (
    <ul class="cards" aria-label="Teams">
      {data.items.map((team) => (
        <li key={team.id} class="panel">
          <strong>{team.name}</strong>
          {team.description ? <span class="muted"> — {team.description}</span> : null}
          {team.members.length === 0 ? (
            <p class="muted">No members.</p>
          ) : (
            <ul class="team-members" aria-label={`Members of ${team.name}`}>
              {team.members.map((m) => (
                <li key={m.userId}>
                  {people.nameOf(m.userId)} <span class="muted">{m.imRole === 'admin' ? 'team admin' : 'member'}</span>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
