import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { useSubmission } from '../../components/use-submission';

type Member = Schemas['User'];
export const ROLES = ['admin', 'editor', 'responder', 'readonly'] as const satisfies ReadonlyArray<Member['role']>;
export const ROLE_LABELS: Record<Member['role'], string> = {
  admin: 'Administrator',
  editor: 'Editor',
  responder: 'Responder',
  readonly: 'Read-only',
};

/** One user: name, email, role, customer; for administrators, change the role or remove them. */
export function UserLine(props: { member: Member; customer: string; self: boolean; admin: boolean; onChanged: () => Promise<void> }) {
  const { member, customer, self, admin, onChanged } = props;
  const [role, setRole] = useState<Member['role']>(member.role);
  const [confirming, setConfirming] = useState(false);
  const change = useSubmission(async () => {
    await ok(api.PATCH('/api/users/{id}', { params: { path: { id: member.id } }, body: { role } }));
    await onChanged();
  });
  const remove = useSubmission(async () => {
    await ok(api.DELETE('/api/users/{id}', { params: { path: { id: member.id } } }));
    await onChanged();
  });
  const writable = admin && !self;
  return (
    <li class="access-line">
      <div class="access-main">
        <strong>{member.name}</strong> <span class="muted">{member.email}</span>
        {self ? <span class="muted"> (you)</span> : null}
        <div class="muted">
          {ROLE_LABELS[member.role]} · {customer}
          {member.twoFactorEnabled ? ' · two-step on' : ''}
          {member.isActive ? '' : ' · deactivated'}
        </div>
      </div>
      {writable ? (
        <div class="access-actions">
          <form onSubmit={change.submit} class="inline-form">
            <label for={`role-${member.id}`} class="visually-hidden">
              Role of {member.name}
            </label>
            <select id={`role-${member.id}`} value={role} onChange={(e) => setRole(e.currentTarget.value as Member['role'])}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
            <button
              type="submit"
              class="secondary"
              disabled={change.busy || role === member.role}
              aria-label={`Change role of ${member.name}`}
            >
              Change role
            </button>
          </form>
          {confirming ? (
            <form onSubmit={remove.submit} class="inline-form">
              <button type="submit" class="remove" disabled={remove.busy}>
                Remove {member.name} for good
              </button>
              <button type="button" class="secondary" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </form>
          ) : (
            <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-label={`Remove ${member.name}`}>
              Remove
            </button>
          )}
        </div>
      ) : null}
      <ErrorText message={change.message ?? remove.message} />
    </li>
  );
}
