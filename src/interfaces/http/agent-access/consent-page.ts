import type { AgentRegistration } from '../../../domain/agent-access/agent-registration';

const SCOPE_TEXT: Record<string, string> = {
  'tools.public': 'Run the public tools (DNS lookups and similar checks)',
  'api.read': 'Read monitors, incidents and health',
  'api.write.monitors': 'Create and change monitors, maintenance windows and tags',
  'api.write.incidents': 'Create and update incidents',
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type ConsentView =
  | { kind: 'askCode' }
  | { kind: 'signIn'; userCode: string }
  | { kind: 'refused'; message: string }
  | {
      kind: 'approve';
      userCode: string;
      registration: AgentRegistration;
      consentCode: string | null;
      user: { email: string; organizationName: string; customerId: number | null };
    };

const SCRIPT = `
const data = JSON.parse(document.getElementById('data').textContent);
const $ = (id) => document.getElementById(id);
const say = (text) => { $('out').textContent = text; };
async function post(url, body) {
  const r = await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { ok: r.ok, body: await r.json().catch(() => ({})) };
}
$('signin')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await post('/api/auth/sign-in/email', { email: $('email').value, password: $('password').value });
  if (r.ok && r.body.twoFactorRedirect) { $('signin').hidden = true; $('totp').hidden = false; } else if (r.ok) location.reload(); else say(r.body.message);
});
$('totp')?.addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await post('/api/auth/two-factor/verify-totp', { code: $('code').value });
  if (r.ok) location.reload(); else say(r.body.message);
});
async function decide(accept) {
  const scopes = [...document.querySelectorAll('input[name=scope]:checked')].map((i) => i.value);
  const r = data.consentCode
    ? await post('/api/oauth/consent', { consent_code: data.consentCode, accept, scopes })
    : await post('/api/agent-claim/confirm', { user_code: data.userCode });
  say(r.ok ? (accept ? 'Approved. The agent can continue; you may close this page.' : 'Denied.') : r.body.message);
  if (r.ok) document.querySelectorAll('button').forEach((b) => { b.disabled = true; });
}
$('allow')?.addEventListener('click', () => decide(true));
$('deny')?.addEventListener('click', () => decide(false));`;

function body(view: ConsentView): string {
  if (view.kind === 'askCode') {
    return `<form method="get"><label>Code shown by the agent <input name="user_code" autocomplete="off" required></label> <button>Continue</button></form>`;
  }
  if (view.kind === 'refused') return `<p class="warn">${escape(view.message)}</p>`;
  if (view.kind === 'signIn') {
    return `<p>Sign in to approve the agent with code <b>${escape(view.userCode)}</b>.</p>
<form id="signin"><label>Email <input id="email" type="email" required></label><label>Password <input id="password" type="password" required></label><button>Sign in</button></form>
<form id="totp" hidden><label>Two-step code <input id="code" inputmode="numeric" required></label><button>Verify</button></form>`;
  }
  const r = view.registration;
  const who = r.clientId
    ? `The app <b>${escape(r.clientId)}</b> (via ${escape(r.issuer ?? '')})`
    : `An agent (${escape(r.type)}, <code>${escape(r.id)}</code>)`;
  const scopes = r.type === 'anonymous' ? ['api.read'] : r.requestedScopes;
  const items = scopes
    .map(
      (s) =>
        `<li>${view.consentCode ? `<label><input type="checkbox" name="scope" value="${escape(s)}" checked> ` : ''}` +
        `<code>${escape(s)}</code>: ${escape(SCOPE_TEXT[s] ?? s)}${view.consentCode ? '</label>' : ''}</li>`,
    )
    .join('');
  const where =
    view.user.customerId === null
      ? escape(view.user.organizationName)
      : `${escape(view.user.organizationName)}, customer #${view.user.customerId}`;
  return `<p>${who} asks to act as you (<b>${escape(view.user.email)}</b>) in <b>${where}</b>, with:</p><ul>${items}</ul>
<p>It can never reach billing, credentials or tokens. You can disconnect it any time under connected apps.</p>
<button id="allow">Approve</button>${view.consentCode ? ' <button id="deny">Deny</button>' : ''}`;
}

/** The consent page at claim_url: server-rendered, no external assets, a nonce'd inline script. */
export function renderConsentPage(view: ConsentView, nonce: string): string {
  const data = JSON.stringify({
    userCode: view.kind === 'approve' || view.kind === 'signIn' ? view.userCode : null,
    consentCode: view.kind === 'approve' ? view.consentCode : null,
  }).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Approve an agent</title><style nonce="${nonce}">body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin:.5rem 0}.warn{color:#a00}button{margin-top:.5rem}</style></head>
<body><h1>Approve an agent</h1>${body(view)}<p id="out" role="status"></p>
<script type="application/json" id="data">${data}</script><script nonce="${nonce}">${SCRIPT}</script></body></html>`;
}
