import { useState } from 'preact/hooks';
import { api, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { RoleAndCustomerFields, customerIdOf } from './role-fields';

type Role = Schemas['User']['role'];
const EMPTY = { name: '', email: '', password: '', role: 'editor' as Role, customerId: '' };

/** POST /api/users: a new user with a first password, a role, and optionally one customer they are tied to. */
export function AddUser({ customers, onAdded }: { customers: Customer[]; onAdded: () => Promise<void> }) {
  const [form, setForm] = useState(EMPTY);
  const [added, setAdded] = useState<string | null>(null);
  const set = (key: keyof typeof EMPTY) => (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setForm({ ...form, [key]: event.currentTarget.value });
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    setAdded(null);
    const created = await ok(
      api.POST('/api/users', {
        body: {
          name: form.name,
          email: form.email,
          password: form.password,
          role: form.role,
          customerId: customerIdOf(form.customerId),
        },
      }),
    );
    setForm(EMPTY);
    setAdded(`${created.name} can now sign in with the password you chose. Tell it to them in a safe way.`);
    await onAdded();
  });
  return (
    <form class="panel" onSubmit={submit} noValidate aria-labelledby="add-user-title">
      <h2 id="add-user-title">Add a user</h2>
      <Field label="Name" id="user-name" error={fieldError('name')}>
        <input id="user-name" required value={form.name} onInput={set('name')} />
      </Field>
      <Field label="Email" id="user-email" error={fieldError('email')}>
        <input id="user-email" type="email" required value={form.email} onInput={set('email')} />
      </Field>
      <Field label="First password" id="user-password" error={fieldError('password')}>
        <input id="user-password" type="password" autocomplete="new-password" required value={form.password} onInput={set('password')} />
      </Field>
      <RoleAndCustomerFields
        idPrefix="user"
        role={form.role}
        customerId={form.customerId}
        customers={customers}
        fieldError={fieldError}
        onRole={(role) => setForm({ ...form, role })}
        onCustomer={(customerId) => setForm({ ...form, customerId })}
      />
      <ErrorText message={message} />
      {added ? <p role="status">{added}</p> : null}
      <button type="submit" disabled={busy}>
        Add user
      </button>
    </form>
  );
}
