import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import type { People } from './people';

type Policy = Schemas['EscalationPolicy'];

/** The schedules and teams a level can page, by name. */
export interface Directory {
  readonly schedules: ReadonlyArray<{ id: string; name: string }>;
  readonly teams: ReadonlyArray<{ id: string; name: string }>;
}
type TargetType = 'user' | 'schedule' | 'team';
interface LevelDraft {
  delayMinutes: string;
  type: TargetType;
  id: string;
}

const levelError = (issues: ReadonlyArray<{ path: string[]; message: string }>, index: number) =>
  issues.find((i) => i.path[0] === 'levels' && String(i.path[1]) === String(index))?.message;

/** Creates (POST) or changes (PATCH /api/escalation-config/{id}) a policy: one target per level here. */
export function PolicyForm(props: {
  policy: Policy | null;
  people: People;
  directory: Directory;
  onDone: () => Promise<void>;
  onCancel: () => void;
}) {
  const { policy, people, directory } = props;
  const choices = (type: TargetType) =>
    type === 'user'
      ? people.list.map((p) => ({ id: p.id, name: people.nameOf(p.id) }))
      : type === 'schedule'
        ? directory.schedules
        : directory.teams;
  const [name, setName] = useState(policy?.name ?? '');
  const [repeat, setRepeat] = useState(String(policy?.repeatCount ?? 0));
  const [levels, setLevels] = useState<LevelDraft[]>(
    policy?.levels.map((l) => ({ delayMinutes: String(l.delayMinutes), type: l.targets[0]!.type, id: l.targets[0]!.id })) ?? [
      { delayMinutes: '15', type: 'schedule', id: directory.schedules[0]?.id ?? '' },
    ],
  );
  const setLevel = (index: number, change: Partial<LevelDraft>) => setLevels(levels.map((l, i) => (i === index ? { ...l, ...change } : l)));
  const { busy, submit, fieldError, message, issues } = usePolicySubmission(async () => {
    const body = {
      name,
      description: policy?.description ?? null,
      repeatCount: Number(repeat),
      levels: levels.map((l) => ({ delayMinutes: Number(l.delayMinutes), targets: [{ type: l.type, id: l.id }] })),
    };
    if (policy) await ok(api.PATCH('/api/escalation-config/{id}', { params: { path: { id: policy.id } }, body }));
    else await ok(api.POST('/api/escalation-config', { body }));
    await props.onDone();
  });
  const title = policy ? `Edit ${policy.name}` : 'New escalation policy';
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="policy-form-title">
      <h3 id="policy-form-title">{title}</h3>
      <Field label="Policy name" id="policy-name" error={fieldError('name')}>
        <input id="policy-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </Field>
      {levels.map((level, i) => (
        <fieldset key={i} class="policy-level">
          <legend>Level {i + 1}</legend>
          <Field label="Who is paged" id={`level-${i}-type`}>
            <select
              id={`level-${i}-type`}
              value={level.type}
              onChange={(e) => {
                const type = e.currentTarget.value as TargetType;
                setLevel(i, { type, id: choices(type)[0]?.id ?? '' });
              }}
            >
              <option value="schedule">Whoever is on call in a schedule</option>
              <option value="team">A team</option>
              <option value="user">A person</option>
            </select>
          </Field>
          <Field label={level.type === 'user' ? 'Person' : level.type === 'schedule' ? 'Schedule' : 'Team'} id={`level-${i}-target`}>
            <select id={`level-${i}-target`} value={level.id} onChange={(e) => setLevel(i, { id: e.currentTarget.value })}>
              {choices(level.type).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Minutes to acknowledge before the next level" id={`level-${i}-delay`} error={levelError(issues, i)}>
            <input
              id={`level-${i}-delay`}
              inputMode="numeric"
              value={level.delayMinutes}
              onInput={(e) => setLevel(i, { delayMinutes: e.currentTarget.value })}
            />
          </Field>
          {levels.length > 1 ? (
            <button type="button" onClick={() => setLevels(levels.filter((_, j) => j !== i))}>
              Remove level {i + 1}
            </button>
          ) : null}
        </fieldset>
      ))}
      <button type="button" onClick={() => setLevels([...levels, { delayMinutes: '15', type: 'user', id: people.list[0]?.id ?? '' }])}>
        Add a level
      </button>
      <Field label="Repeat the chain (times)" id="policy-repeat" error={fieldError('repeatCount')}>
        <input id="policy-repeat" inputMode="numeric" value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />
      </Field>
      <ErrorText message={fieldError('name') || fieldError('repeatCount') ? null : message} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {policy ? 'Save policy' : 'Create policy'}
        </button>
        <button type="button" class="tab" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** useSubmission, plus the refusal's issues so a level's field can show its own. */
function usePolicySubmission(work: () => Promise<void>) {
  const [issues, setIssues] = useState<ReadonlyArray<{ path: string[]; message: string }>>([]);
  const submission = useSubmission(async () => {
    setIssues([]);
    try {
      await work();
    } catch (failure) {
      const found = (failure as { issues?: ReadonlyArray<{ path: string[]; message: string }> }).issues;
      if (found) setIssues(found);
      throw failure;
    }
  });
  return { ...submission, issues };
}
