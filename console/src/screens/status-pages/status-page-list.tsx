import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import { loadCustomers } from '../../monitors/monitor-rows';
import { navigate } from '../../router';
import type { User } from '../../session';
import { may } from '../../permissions';
import './status-pages.css';

export type StatusPage = Schemas['StatusPage'];

/** A slug proposed from a title: lower case, digits and inner hyphens (the API decides). */
const slugOf = (title: string) =>
  title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);

/** The status pages of the caller's scope (GET /api/status-pages) and, for writers, a form to make one. */
export function StatusPageList({ user }: { user: User }) {
  const [pages, setPages] = useState<StatusPage[] | null>(null);
  const [customers, setCustomers] = useState<Customer[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState({ title: '', slug: '', customerId: '' });
  const [slugEdited, setSlugEdited] = useState(false);
  const load = useCallback(async () => {
    try {
      setPages((await ok(api.GET('/api/status-pages', { params: { query: { perPage: 100 } } }))).items);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => {
    void load();
    if (user.customerId === null) loadCustomers().then(setCustomers, () => setCustomers([]));
  }, [load]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const page = await ok(
      api.POST('/api/status-pages', {
        body: {
          title: form.title,
          slug: form.slug,
          customerId: form.customerId === '' ? null : form.customerId,
          // The API's defaults, said out loud (its schema types them as required).
          description: null,
          logo: null,
          brandColor: '#1f2937',
          groups: [],
          objectives: [],
          showResponseTimes: false,
          footer: null,
          ipAllowlist: [],
          password: null,
        },
      }),
    );
    navigate(`/status-pages/${page.id}`);
  });
  return (
    <section aria-labelledby="status-pages-title">
      <h1 id="status-pages-title">Status pages</h1>
      <p>
        <Link to="/custom-domains">Custom domains</Link> <span class="muted">serve a page (or the whole console) under your own name.</span>
      </p>
      <ErrorText message={error} />
      {pages === null && !error ? <p role="status">Loading status pages…</p> : null}
      {pages?.length === 0 ? <p>No status pages yet.</p> : null}
      <ul class="plain-list" aria-label="Status pages">
        {pages?.map((page) => (
          <li key={page.id}>
            <Link to={`/status-pages/${page.id}`}>{page.title}</Link> <span class="muted">{page.url}</span>
            {page.isPrivate ? <span class="muted"> · private</span> : null}
          </li>
        ))}
      </ul>
      {may(user, 'statusPage.create') ? (
        <form class="panel" onSubmit={submit} noValidate aria-labelledby="new-page-title">
          <h2 id="new-page-title">New status page</h2>
          <Field label="Title" id="page-title" error={fieldError('title')}>
            <input
              id="page-title"
              required
              value={form.title}
              onInput={(e) => {
                const title = e.currentTarget.value;
                setForm({ ...form, title, slug: slugEdited ? form.slug : slugOf(title) });
              }}
            />
          </Field>
          <Field label="Address (slug): the page answers at /status/slug" id="page-slug" error={fieldError('slug')}>
            <input
              id="page-slug"
              required
              value={form.slug}
              onInput={(e) => {
                setSlugEdited(true);
                setForm({ ...form, slug: e.currentTarget.value });
              }}
            />
          </Field>
          {user.customerId === null && customers.length > 0 ? (
            <Field label="Whose page" id="page-customer" error={fieldError('customerId')}>
              <select id="page-customer" value={form.customerId} onChange={(e) => setForm({ ...form, customerId: e.currentTarget.value })}>
                <option value="">The organization's</option>
                {customers.map((c) => (
                  <option key={c.id} value={String(c.id)}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
          ) : null}
          <ErrorText message={message} />
          <button type="submit" disabled={busy}>
            Create status page
          </button>
        </form>
      ) : null}
    </section>
  );
}
