import { useEffect, useState } from 'preact/hooks';
import { api, describe, ok } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { asDataUrl } from '../status-pages/read-file';
import { reloadBrand } from './brand';
import './branding.css';

interface Look {
  name: string;
  accentColor: string;
  logo: string | null;
}

/**
 * The organization's white-label look (PATCH /api/organization: name, accentColor, logo): what the
 * console shows on the organization's active white-label custom domains instead of the platform's.
 */
export function BrandingPage() {
  const [look, setLook] = useState<Look | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    ok(api.GET('/api/organization')).then(
      (org) => setLook({ name: org.name, accentColor: org.accentColor ?? '', logo: org.logo }),
      (failure: unknown) => setError(describe(failure)),
    );
  }, []);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    if (!look) return;
    setSaved(false);
    const org = await ok(
      api.PATCH('/api/organization', {
        body: { name: look.name, accentColor: look.accentColor.trim() === '' ? null : look.accentColor.trim(), logo: look.logo },
      }),
    );
    setLook({ name: org.name, accentColor: org.accentColor ?? '', logo: org.logo });
    setSaved(true);
    await reloadBrand();
  });
  const pick = async (file: File | undefined) => {
    if (!file || !look) return;
    try {
      setLook({ ...look, logo: await asDataUrl(file) });
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const validColor = look && /^#[0-9a-fA-F]{6}$/.test(look.accentColor.trim());
  return (
    <section aria-labelledby="branding-title">
      <h1 id="branding-title">Branding</h1>
      <p class="muted">
        On an active white-label custom domain, the console shows this name, logo and accent colour, and nothing of the platform's name. Add
        the domain under Custom domains.
      </p>
      <ErrorText message={error} />
      {look === null && !error ? <p role="status">Loading…</p> : null}
      {look ? (
        <form class="panel" onSubmit={submit} noValidate aria-labelledby="branding-form-title">
          <h2 id="branding-form-title">Look on white-label domains</h2>
          <Field label="Organization name" id="brand-name" error={fieldError('name')}>
            <input id="brand-name" required value={look.name} onInput={(e) => setLook({ ...look, name: e.currentTarget.value })} />
          </Field>
          <Field label="Accent colour (#rrggbb, empty for the platform's)" id="brand-accent" error={fieldError('accentColor')}>
            <input
              id="brand-accent"
              value={look.accentColor}
              placeholder="#0a7d5a"
              onInput={(e) => setLook({ ...look, accentColor: e.currentTarget.value })}
            />
          </Field>
          {validColor ? (
            <p>
              Swatch
              <svg class="branding-swatch" width="32" height="20" role="img" aria-label={`Swatch of ${look.accentColor.trim()}`}>
                <rect width="32" height="20" rx="4" fill={look.accentColor.trim()} />
              </svg>
            </p>
          ) : null}
          <Field label="Logo (PNG, JPEG, GIF, WebP or SVG, at most 32 KiB)" id="brand-logo" error={fieldError('logo')}>
            <input
              id="brand-logo"
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp,image/svg+xml"
              onChange={(e) => void pick(e.currentTarget.files?.[0])}
            />
          </Field>
          {look.logo ? (
            <img class="branding-logo-preview" src={look.logo} alt="The logo as it will be shown" />
          ) : (
            <p class="muted">No logo.</p>
          )}
          <ErrorText message={message} />
          {saved ? <p role="status">Saved.</p> : null}
          <div class="branding-actions">
            <button type="submit" disabled={busy}>
              Save branding
            </button>
            {look.logo ? (
              <button type="button" class="secondary" onClick={() => setLook({ ...look, logo: null })}>
                Remove logo
              </button>
            ) : null}
          </div>
        </form>
      ) : null}
    </section>
  );
}
