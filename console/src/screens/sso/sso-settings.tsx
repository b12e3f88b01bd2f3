import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { Link } from '../../components/link';
import { useSubmission } from '../../components/use-submission';
import type { User } from '../../session';
import { may } from '../../permissions';
import './sso.css';

type Settings = Schemas['SsoSettings'];
type Role = Settings['defaultRole'];
const ROLES: readonly Role[] = ['readonly', 'responder', 'editor', 'admin'];

interface Values {
  issuer: string;
  clientId: string;
  clientSecret: string;
  domains: string;
  defaultRole: Role;
  groupClaim: string;
  groupRoles: Array<{ group: string; role: Role }>;
  ssoOnly: boolean;
  breakGlassUserId: string;
}

const blank: Values = {
  issuer: '',
  clientId: '',
  clientSecret: '',
  domains: '',
  defaultRole: 'readonly',
  groupClaim: '',
  groupRoles: [],
  ssoOnly: false,
  breakGlassUserId: '',
};

const valuesOf = (s: Settings): Values => ({
  issuer: s.issuer,
  clientId: s.clientId,
  clientSecret: '',
  domains: s.allowedDomains.join('\n'),
  defaultRole: s.defaultRole,
  groupClaim: s.groupClaim ?? '',
  groupRoles: Object.entries(s.groupRoles).map(([group, role]) => ({ group, role })),
  ssoOnly: s.ssoOnly,
  breakGlassUserId: s.breakGlassUserId ?? '',
});

/** The fields the form shows a refusal at (one shown there is not said again under the form). */
const FIELDS = ['issuer', 'clientId', 'clientSecret', 'allowedDomains', 'defaultRole', 'groupClaim', 'groupRoles', 'breakGlassUserId'];

/** The settings, or null when none are configured (404 ssoNotConfigured). */
async function loadSettings(): Promise<Settings | null> {
  try {
    return await ok(api.GET('/api/organization/sso'));
  } catch (failure) {
    if (failure instanceof ApiError && failure.code === 'ssoNotConfigured') return null;
    throw failure;
  }
}

/**
 * Single sign-on (GET/PUT/DELETE /api/organization/sso): the provider's issuer and client, the client
 * secret (write-only: the page says whether one is stored, never shows it), the allowed e-mail domains,
 * the role of new people, roles from a group claim, and SSO only with its break-glass admin.
 */
export function SsoSettingsPage({ user }: { user: User }) {
  const [settings, setSettings] = useState<Settings | null | undefined>(undefined);
  const [values, setValues] = useState<Values>(blank);
  const [admins, setAdmins] = useState<Schemas['User'][]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      const [found, users] = await Promise.all([loadSettings(), ok(api.GET('/api/users', { params: { query: { perPage: 200 } } }))]);
      setSettings(found);
      setValues(found ? valuesOf(found) : blank);
      setAdmins(users.items.filter((u) => u.role === 'admin' && u.customerId === null && u.isActive));
    } catch (failure) {
      setLoadError(describe(failure));
    }
  }, []);
  useEffect(() => void reload(), [reload]);
  const set = <K extends keyof Values>(name: K, value: Values[K]) => {
    setSaved(false);
    setValues((v) => ({ ...v, [name]: value }));
  };
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const body = {
      issuer: values.issuer.trim(),
      clientId: values.clientId.trim(),
      ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
      allowedDomains: values.domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean),
      defaultRole: values.defaultRole,
      groupClaim: values.groupClaim.trim() || null,
      groupRoles: Object.fromEntries(values.groupRoles.filter((m) => m.group.trim()).map((m) => [m.group.trim(), m.role])),
      ssoOnly: values.ssoOnly,
      breakGlassUserId: values.breakGlassUserId || null,
    };
    const stored = await ok(api.PUT('/api/organization/sso', { body }));
    setSettings(stored);
    setValues(valuesOf(stored));
    setSaved(true);
  });
  const remove = async () => {
    try {
      await ok(api.DELETE('/api/organization/sso'));
      setConfirming(false);
      setSaved(false);
      await reload();
    } catch (failure) {
      setRemoveError(describe(failure));
    }
  };
  if (!may(user, 'sso.manage')) return <p>Only the organization's administrators configure single sign-on.</p>;
  if (settings === undefined) return loadError ? <ErrorText message={loadError} /> : <p role="status">Loading single sign-on…</p>;
  const mapping = (index: number, change: Partial<Values['groupRoles'][number]>) =>
    set(
      'groupRoles',
      values.groupRoles.map((m, i) => (i === index ? { ...m, ...change } : m)),
    );
  return (
    <section aria-labelledby="sso-title">
      <h1 id="sso-title">Single sign-on</h1>
      <p class="muted">
        <Link to="/organization">Organization</Link> · People of the allowed domains sign in with their work e-mail through your OpenID
        Connect provider; their account is made at their first sign-in.
      </p>
      <p role="status">
        {settings ? `Configured, last changed ${dateTime(settings.updatedAt)}.` : 'Not configured: everyone signs in with a password.'}
      </p>
      {settings ? (
        <dl class="sso-uris panel" aria-label="Addresses to register at the provider">
          <dt>Redirect URI to register at the provider</dt>
          <dd>{settings.redirectUri}</dd>
          <dt>Back-channel logout URI (optional)</dt>
          <dd>{settings.backChannelLogoutUri}</dd>
        </dl>
      ) : null}
      <form class="panel sso-form" onSubmit={submit} noValidate>
        <Field label="Issuer (https URL of the provider)" id="sso-issuer" error={fieldError('issuer')}>
          <input id="sso-issuer" type="url" value={values.issuer} onInput={(e) => set('issuer', e.currentTarget.value)} />
        </Field>
        <Field label="Client ID" id="sso-client-id" error={fieldError('clientId')}>
          <input id="sso-client-id" type="text" value={values.clientId} onInput={(e) => set('clientId', e.currentTarget.value)} />
        </Field>
        <Field label="Client secret" id="sso-client-secret" error={fieldError('clientSecret')}>
          <input
            id="sso-client-secret"
            type="password"
            autoComplete="new-password"
            aria-describedby="sso-secret-hint"
            value={values.clientSecret}
            onInput={(e) => set('clientSecret', e.currentTarget.value)}
          />
        </Field>
        <p class="field-hint" id="sso-secret-hint">
          {settings?.clientSecretSet
            ? 'A secret is stored (encrypted; it is never shown). Leave this empty to keep it, or type a new one to replace it.'
            : 'No secret is stored yet.'}
        </p>
        <Field label="Allowed e-mail domains (one per line)" id="sso-domains" error={fieldError('allowedDomains')}>
          <textarea id="sso-domains" rows={3} value={values.domains} onInput={(e) => set('domains', e.currentTarget.value)} />
        </Field>
        <Field label="Role of people signing in for the first time" id="sso-default-role" error={fieldError('defaultRole')}>
          <select id="sso-default-role" value={values.defaultRole} onChange={(e) => set('defaultRole', e.currentTarget.value as Role)}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </Field>
        <fieldset class="sso-group" aria-describedby={fieldError('groupRoles') ? 'sso-group-roles-error' : undefined}>
          <legend>Roles from groups</legend>
          <p class="field-hint">At each sign-in a person's role becomes the strongest role of their mapped groups.</p>
          <Field label="Group claim" id="sso-group-claim" error={fieldError('groupClaim')}>
            <input id="sso-group-claim" type="text" value={values.groupClaim} onInput={(e) => set('groupClaim', e.currentTarget.value)} />
          </Field>
          {values.groupRoles.map((m, index) => (
            <div key={index} class="sso-mapping">
              <Field label={`Group ${index + 1}`} id={`sso-group-${index}`}>
                <input
                  id={`sso-group-${index}`}
                  type="text"
                  value={m.group}
                  onInput={(e) => mapping(index, { group: e.currentTarget.value })}
                />
              </Field>
              <Field label={`Role of group ${index + 1}`} id={`sso-group-role-${index}`}>
                <select
                  id={`sso-group-role-${index}`}
                  value={m.role}
                  onChange={(e) => mapping(index, { role: e.currentTarget.value as Role })}
                >
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </Field>
              <button
                type="button"
                onClick={() =>
                  set(
                    'groupRoles',
                    values.groupRoles.filter((_, i) => i !== index),
                  )
                }
              >
                Remove group {index + 1}
              </button>
            </div>
          ))}
          <button type="button" onClick={() => set('groupRoles', [...values.groupRoles, { group: '', role: 'readonly' }])}>
            Add a group
          </button>
          {fieldError('groupRoles') ? (
            <p class="field-error" id="sso-group-roles-error" role="alert">
              {fieldError('groupRoles')}
            </p>
          ) : null}
        </fieldset>
        <label class="sso-check">
          <input type="checkbox" checked={values.ssoOnly} onChange={(e) => set('ssoOnly', e.currentTarget.checked)} />
          SSO only: refuse password sign-in to everyone but the break-glass admin
        </label>
        <Field label="Break-glass admin (may still sign in with a password)" id="sso-break-glass" error={fieldError('breakGlassUserId')}>
          <select id="sso-break-glass" value={values.breakGlassUserId} onChange={(e) => set('breakGlassUserId', e.currentTarget.value)}>
            <option value="">None</option>
            {admins.map((admin) => (
              <option key={admin.id} value={admin.id}>
                {admin.name} ({admin.email})
              </option>
            ))}
          </select>
        </Field>
        <ErrorText message={FIELDS.some((f) => fieldError(f)) ? null : message} />
        {saved ? <p role="status">Saved.</p> : null}
        <div class="sso-actions">
          <button type="submit" disabled={busy}>
            Save single sign-on
          </button>
        </div>
      </form>
      {settings ? (
        <div class="sso-actions">
          {confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void remove()}>
                Remove single sign-on for good
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Remove single sign-on
            </button>
          )}
          <ErrorText message={removeError} />
        </div>
      ) : null}
    </section>
  );
}
