import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer } from '../../api/client';
import { useSubmission } from '../../components/use-submission';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { loadCustomers } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';

/** The customers of the caller's scope, and (for organization-wide writers) a form to add one. */
export function Customers({ user }: { user: User }) {
  const [customers, setCustomers] = useState<Customer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', email: '' });
  const load = useCallback(async () => {
    try {
      setCustomers(await loadCustomers());
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    await ok(api.POST('/api/customers', { body: { name: form.name, email: form.email, allowSelfService: true } }));
    setForm({ name: '', email: '' });
    await load();
  });
  const canCreate = may(user, 'customer.create');
  return (
    <section aria-labelledby="customers-title">
      <h1 id="customers-title">Customers</h1>
      <ErrorText message={error} />
      {customers === null && !error ? <p role="status">Loading customers…</p> : null}
      {customers?.length === 0 ? <p>No customers yet.</p> : null}
      <ul class="plain-list" aria-label="Customers">
        {customers?.map((c) => (
          <li key={c.id}>
            <Link to={`/customers/${c.publicId}`}>{c.name}</Link> <span class="muted">{c.email}</span>
          </li>
        ))}
      </ul>
      {canCreate ? (
        <form class="panel" onSubmit={submit} noValidate aria-labelledby="add-customer-title">
          <h2 id="add-customer-title">Add a customer</h2>
          <Field label="Customer name" id="customer-name" error={fieldError('name')}>
            <input id="customer-name" required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
          </Field>
          <Field label="Customer email" id="customer-email" error={fieldError('email')}>
            <input
              id="customer-email"
              type="email"
              required
              value={form.email}
              onInput={(e) => setForm({ ...form, email: e.currentTarget.value })}
            />
          </Field>
          <ErrorText message={message} />
          <button type="submit" disabled={busy}>
            Add customer
          </button>
        </form>
      ) : null}
    </section>
  );
}
