import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok, type Customer } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { loadCustomers } from '../../monitors/monitor-rows';
import type { User } from '../../session';

/** The customers of the caller's scope, and (for organization-wide writers) a form to add one. */
export function Customers({ user }: { user: User }) {
  const [customers, setCustomers] = useState<Customer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', email: '' });
  const [formError, setFormError] = useState<ApiError | string | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(async () => {
    try {
      setCustomers(await loadCustomers());
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFormError(null);
    try {
      await ok(api.POST('/api/customers', { body: { name: form.name, email: form.email, allowSelfService: true } }));
      setForm({ name: '', email: '' });
      await load();
    } catch (failure) {
      setFormError(failure instanceof ApiError ? failure : describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (name: string) => (formError instanceof ApiError ? formError.forField(name) : undefined);
  const canCreate = user.customerId === null && (user.role === 'admin' || user.role === 'editor');
  return (
    <section aria-labelledby="customers-title">
      <h1 id="customers-title">Customers</h1>
      <ErrorText message={error} />
      {customers === null && !error ? <p role="status">Loading customers…</p> : null}
      {customers?.length === 0 ? <p>No customers yet.</p> : null}
      <ul class="plain-list" aria-label="Customers">
        {customers?.map((c) => (
          <li key={c.id}>
            <strong>{c.name}</strong> <span class="muted">{c.email}</span>
          </li>
        ))}
      </ul>
      {canCreate ? (
        <form class="panel" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="add-customer-title">
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
          <ErrorText message={formError instanceof ApiError ? formError.message : formError} />
          <button type="submit" disabled={busy}>
            Add customer
          </button>
        </form>
      ) : null}
    </section>
  );
}
