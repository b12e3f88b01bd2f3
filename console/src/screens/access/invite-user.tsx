import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { SecretOnce } from './secret-once';
import { RoleAndCustomerFields, customerIdOf } from './role-fields';
import { ROLE_LABELS } from './user-line';

type Role = Schemas['User']['role'];
type Invitation = Schemas['Invitation'];
const EMPTY = { email: '', role: 'editor' as Role, customerId: '' };

/**
 * POST /api/invitations: an e-mail with a link where the person chooses their name and password;
 * GET /api/invitations lists the pending ones, DELETE /api/invitations/{id} revokes one. When the
 * e-mail could not be sent, the link is shown once for the admin to pass on.
 */
export function InviteUser({ customers }: { customers: Customer[] }) {
  const [form, setForm] = useState(EMPTY);
  const [pending, setPending] = useState<Invitation[] | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setPending((await ok(api.GET('/api/invitations'))).items);
    } catch (failure) {
      setListError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const set = (key: keyof typeof EMPTY) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setForm({ ...form, [key]: event.currentTarget.value });
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    setSent(null);
    setLink(null);
    const created = await ok(
      api.POST('/api/invitations', {
        body: { email: form.email, role: form.role, customerId: customerIdOf(form.customerId) },
      }),
    );
    setForm(EMPTY);
    if (created.acceptUrl) setLink(created.acceptUrl);
    else setSent(`An invitation went to ${created.email}.`);
    await load();
  });
  return (
    <div class="invite-user">
      <form class="panel" onSubmit={submit} noValidate aria-labelledby="invite-user-title">
        <h2 id="invite-user-title">Invite by e-mail</h2>
        <p class="muted">The person gets a link, valid for 7 days and once, where they choose their name and password.</p>
        <Field label="Email" id="invite-email" error={fieldError('email')}>
          <input id="invite-email" type="email" required value={form.email} onInput={set('email')} />
        </Field>
        <RoleAndCustomerFields
          idPrefix="invite"
          role={form.role}
          customerId={form.customerId}
          customers={customers}
          fieldError={fieldError}
          onRole={(role) => setForm({ ...form, role })}
          onCustomer={(customerId) => setForm({ ...form, customerId })}
        />
        <ErrorText message={message} />
        {sent ? <p role="status">{sent}</p> : null}
        <button type="submit" disabled={busy}>
          Send invitation
        </button>
      </form>
      {link ? (
        <>
          <p role="status">The e-mail could not be sent: pass this link on to the person yourself.</p>
          <SecretOnce label="Invitation link" secret={link} onDone={() => setLink(null)} />
        </>
      ) : null}
      <section class="panel" aria-labelledby="pending-invitations-title">
        <h2 id="pending-invitations-title">Pending invitations</h2>
        <ErrorText message={listError} />
        {pending?.length === 0 ? <p class="muted">No pending invitations.</p> : null}
        <ul class="access-list" aria-label="Pending invitations">
          {pending?.map((invitation) => (
            <PendingLine key={invitation.id} invitation={invitation} customers={customers} onRevoked={load} />
          ))}
        </ul>
      </section>
    </div>
  );
}

function PendingLine({
  invitation,
  customers,
  onRevoked,
}: {
  invitation: Invitation;
  customers: Customer[];
  onRevoked: () => Promise<void>;
}) {
  const customer =
    invitation.customerId === null
      ? 'Whole organization'
      : (customers.find((c) => c.id === invitation.customerId)?.name ?? `Customer ${invitation.customerId}`);
  const { busy, submit, message } = useSubmission(async () => {
    await ok(api.DELETE('/api/invitations/{id}', { params: { path: { id: invitation.id } } }));
    await onRevoked();
  });
  return (
    <li class="access-line">
      <span>
        <strong>{invitation.email}</strong>{' '}
        <span class="muted">
          {ROLE_LABELS[invitation.role]} · {customer} · until {dateTime(invitation.expiresAt)}
        </span>
      </span>
      <form onSubmit={submit}>
        <button type="submit" class="secondary" disabled={busy} aria-label={`Revoke the invitation of ${invitation.email}`}>
          Revoke
        </button>
        <ErrorText message={message} />
      </form>
    </li>
  );
}
