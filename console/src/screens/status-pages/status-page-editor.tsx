import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import { loadOverview, type OverviewRow } from '../../monitors/monitor-rows';
import { navigate } from '../../router';
import type { User } from '../../session';
import { may } from '../../permissions';
import { changeOf, draftOf, type Draft, type StatusPage } from './draft';
import { PageComponents } from './page-components';
import { PageIncidents } from './page-incidents';
import { PageObjectives } from './page-objectives';
import { PagePreview, type PublicView } from './page-preview';
import { PageSubscribers } from './page-subscribers';
import { asDataUrl } from './read-file';
import './status-pages.css';

/** How often the preview reads the states again (the public page is rebuilt at most every 5 s; a read of an unchanged one is a 304). */
const PREVIEW_REFRESH_MS = 2_500;

/** The public view of the saved page, or why there is none (a private page is not shown to the console's preview). */
async function readView(slug: string): Promise<{ view: PublicView | null; note: string | null }> {
  try {
    // no-cache: the public answer is cacheable for visitors; the editor revalidates it every time.
    return { view: await ok(api.GET('/api/public/status-pages/{slug}', { params: { path: { slug } }, cache: 'no-cache' })), note: null };
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 403) {
      return { view: null, note: 'The page is private (password or IP allowlist): states are not previewed.' };
    }
    return { view: null, note: `States could not be read: ${describe(failure)}` };
  }
}

/** One status page: its settings and components with a live preview, its incidents and its subscribers. */
export function StatusPageEditor({ id, user }: { id: string; user: User }) {
  const [page, setPage] = useState<StatusPage | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [monitors, setMonitors] = useState<OverviewRow[]>([]);
  const [view, setView] = useState<{ view: PublicView | null; note: string | null }>({ view: null, note: null });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const writer = may(user, 'statusPage.update');
  const refreshView = useCallback(async (slug: string) => setView(await readView(slug)), []);
  useEffect(() => {
    ok(api.GET('/api/status-pages/{id}', { params: { path: { id } } })).then(
      (loaded) => {
        setPage(loaded);
        setDraft(draftOf(loaded));
        void refreshView(loaded.slug);
        if (writer) {
          loadOverview(() => undefined).then(
            (rows) => setMonitors(loaded.customerId === null ? rows : rows.filter((m) => m.customerId === loaded.customerId)),
            (failure: unknown) => setError(describe(failure)),
          );
        }
      },
      (failure: unknown) => setError(describe(failure)),
    );
  }, [id]);
  // The states move on their own: the preview reads them again while the editor is open.
  useEffect(() => {
    if (!page) return;
    const timer = window.setInterval(() => void refreshView(page.slug), PREVIEW_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [page?.slug]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    if (!draft) return;
    setSaved(false);
    const updated = await ok(api.PATCH('/api/status-pages/{id}', { params: { path: { id } }, body: changeOf(draft) }));
    setPage(updated);
    setDraft(draftOf(updated));
    setSaved(true);
    await refreshView(updated.slug);
  });
  const remove = useSubmission(async () => {
    await ok(api.DELETE('/api/status-pages/{id}', { params: { path: { id } } }));
    navigate('/status-pages');
  });
  if (error) return <ErrorText message={error} />;
  if (!page || !draft) return <p role="status">Loading the status page…</p>;
  const set = (change: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...change });
  };
  const pickLogo = async (file: File | undefined) => {
    if (file) set({ logo: await asDataUrl(file) });
  };
  return (
    <section aria-labelledby="page-heading">
      <p>
        <Link to="/status-pages">Status pages</Link>
      </p>
      <h1 id="page-heading">{page.title}</h1>
      <p class="muted">
        Visitors read it at <a href={page.url}>{page.url}</a>
        {page.isPrivate ? ' (private)' : ''}.
      </p>
      <div class="sp-layout">
        <form class="panel" onSubmit={remove.busy ? (e) => e.preventDefault() : submit} noValidate aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          <fieldset disabled={!writer} class="sp-settings">
            <legend class="muted">{writer ? 'Changes show in the preview at once; save to publish them.' : 'Read only.'}</legend>
            <Field label="Title" id="sp-title" error={fieldError('title')}>
              <input id="sp-title" value={draft.title} onInput={(e) => set({ title: e.currentTarget.value })} />
            </Field>
            <Field label="Address (slug)" id="sp-slug" error={fieldError('slug')}>
              <input id="sp-slug" value={draft.slug} onInput={(e) => set({ slug: e.currentTarget.value })} />
            </Field>
            <Field label="Description" id="sp-description" error={fieldError('description')}>
              <textarea id="sp-description" value={draft.description} onInput={(e) => set({ description: e.currentTarget.value })} />
            </Field>
            <Field label="Header colour (#rrggbb)" id="sp-color" error={fieldError('brandColor')}>
              <input id="sp-color" value={draft.brandColor} onInput={(e) => set({ brandColor: e.currentTarget.value })} />
            </Field>
            <Field label="Logo (image of at most 32 KiB)" id="sp-logo" error={fieldError('logo')}>
              <input
                id="sp-logo"
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
                onChange={(e) => void pickLogo(e.currentTarget.files?.[0])}
              />
            </Field>
            {draft.logo ? (
              <button type="button" class="secondary" onClick={() => set({ logo: null })}>
                Remove logo
              </button>
            ) : null}
            <Field label="Footer" id="sp-footer" error={fieldError('footer')}>
              <textarea id="sp-footer" value={draft.footer} onInput={(e) => set({ footer: e.currentTarget.value })} />
            </Field>
            <label class="sp-check" for="sp-response-times">
              <input
                id="sp-response-times"
                type="checkbox"
                checked={draft.showResponseTimes}
                onChange={(e) => set({ showResponseTimes: e.currentTarget.checked })}
              />
              Show each monitor's last response time
            </label>
            <Field
              label="Addresses allowed to read the page (one IP or CIDR a line; empty: anyone)"
              id="sp-ips"
              error={fieldError('ipAllowlist')}
            >
              <textarea id="sp-ips" value={draft.ipAllowlist} onInput={(e) => set({ ipAllowlist: e.currentTarget.value })} />
            </Field>
            <Field
              label={
                page.passwordProtected
                  ? 'New password (visitors enter it; empty: keep the current one)'
                  : 'Password (visitors enter it; empty: none)'
              }
              id="sp-password"
              error={fieldError('password')}
            >
              <input
                id="sp-password"
                type="password"
                autocomplete="new-password"
                value={draft.password}
                disabled={draft.removePassword}
                onInput={(e) => set({ password: e.currentTarget.value })}
              />
            </Field>
            {page.passwordProtected ? (
              <label class="sp-check" for="sp-no-password">
                <input
                  id="sp-no-password"
                  type="checkbox"
                  checked={draft.removePassword}
                  onChange={(e) => set({ removePassword: e.currentTarget.checked })}
                />
                Remove the password
              </label>
            ) : null}
          </fieldset>
          <PageComponents groups={draft.groups} monitors={monitors} disabled={!writer} onChange={(groups) => set({ groups })} />
          {fieldError('groups') ? <p class="field-error">{fieldError('groups')}</p> : null}
          <PageObjectives
            chosen={draft.objectives}
            customerId={page.customerId}
            disabled={!writer}
            error={fieldError('objectives')}
            onChange={(objectives) => set({ objectives })}
          />
          <ErrorText message={message} />
          {saved ? <p role="status">Saved: the page shows these settings now.</p> : null}
          {writer ? (
            <div class="actions">
              <button type="submit" disabled={busy}>
                Save page
              </button>
              {confirmDelete ? (
                <button type="button" class="secondary" onClick={remove.submit}>
                  Delete this page and its subscribers for good
                </button>
              ) : (
                <button type="button" class="secondary" onClick={() => setConfirmDelete(true)}>
                  Delete page…
                </button>
              )}
            </div>
          ) : null}
          <ErrorText message={remove.message} />
        </form>
        <div>
          <h2>Preview</h2>
          <PagePreview draft={draft} view={view.view} viewNote={view.note} />
        </div>
      </div>
      <PageIncidents
        pageId={page.id}
        components={draft.groups.flatMap((g) => g.components)}
        writer={writer}
        onChange={() => void refreshView(page.slug)}
      />
      <PageSubscribers pageId={page.id} writer={writer} />
    </section>
  );
}
