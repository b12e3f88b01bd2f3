import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer } from '../../api/client';
import { useSubmission } from '../../components/use-submission';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { loadCustomers } from '../../monitors/monitor-rows';
import { navigate } from '../../router';

/** Add a website monitor (POST /api/websites); the API's validation messages show at their field. */
export function NewMonitor() {
  const [customers, setCustomers] = useState<Customer[] | null>(null);
  const [form, setForm] = useState({ customerId: '', name: '', url: '' });
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    loadCustomers().then(
      (found) => {
        setCustomers(found);
        if (found[0]) setForm((current) => ({ ...current, customerId: current.customerId || String(found[0]!.id) }));
      },
      (failure: unknown) => setLoadError(describe(failure)),
    );
  }, []);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const created = await ok(
      api.POST('/api/websites', {
        body: { customerId: Number(form.customerId), url: form.url, ...(form.name.trim() ? { name: form.name } : {}) },
      }),
    );
    navigate(`/monitors/website/${created.publicId}`);
  });
  if (customers?.length === 0)
    return (
      <section>
        <h1>Add a monitor</h1>
        <p>
          A monitor belongs to a customer: <Link to="/customers">add a customer</Link> first.
        </p>
      </section>
    );
  return (
    <section aria-labelledby="new-monitor-title">
      <h1 id="new-monitor-title">Add a website monitor</h1>
      <form class="panel" onSubmit={submit} noValidate>
        <Field label="Customer" id="monitor-customer" error={fieldError('customerId')}>
          <select id="monitor-customer" value={form.customerId} onChange={(e) => setForm({ ...form, customerId: e.currentTarget.value })}>
            {customers?.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Name" id="monitor-name" error={fieldError('name')}>
          <input
            id="monitor-name"
            value={form.name}
            placeholder="Defaults to the address"
            onInput={(e) => setForm({ ...form, name: e.currentTarget.value })}
          />
        </Field>
        <Field label="URL" id="monitor-url" error={fieldError('url')}>
          <input
            id="monitor-url"
            type="url"
            required
            value={form.url}
            placeholder="https://example.com/"
            onInput={(e) => setForm({ ...form, url: e.currentTarget.value })}
          />
        </Field>
        <ErrorText message={message ?? loadError} />
        <button type="submit" disabled={busy || !customers}>
          Add monitor
        </button>
      </form>
    </section>
  );
}
