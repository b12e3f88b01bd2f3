import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeNow, listenOnLoopback } from './loopback-listen';

const LOGIN_PAGE = `<!doctype html><html><head><title>Sign in</title></head><body>
<h1>Shop</h1>
<form id="login"><input id="email" name="email"><input id="password" name="password" type="password">
<button id="submit" type="submit" disabled>Sign in</button></form><p id="status"></p>
<script>
  const form = document.getElementById('login');
  document.getElementById('submit').disabled = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    document.getElementById('status').textContent = 'Signing in...';
    const answer = await fetch('/api/login', { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: form.email.value, password: form.password.value }) });
    if (answer.ok) location.href = '/dashboard';
    else document.getElementById('status').textContent = 'Wrong email or password';
  });
</script></body></html>`;

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/**
 * TEST SUPPORT ONLY: a small site on loopback for browser scenarios. / is a sign-in form whose
 * inline script posts JSON to /api/login (ann@shop.test / s3cret) and then opens /dashboard
 * ("Welcome back, Ann", title Dashboard, only with the session cookie). /cookie sets a cookie and
 * /cookies shows the cookies sent; /hang never answers; /broken answers 500; /with-image embeds
 * an image from `imageUrl`.
 */
export class LoginSite {
  private server!: http.Server;
  imageUrl = 'http://10.9.9.9/logo.png';
  /** The User-Agent of every request, in order (null when none was sent). */
  readonly userAgents: (string | null)[] = [];

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/', host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  async start(): Promise<this> {
    this.server = await listenOnLoopback(http.createServer((req, res) => this.handle(req, res)));
    return this;
  }

  stop(): Promise<void> {
    return closeNow(this.server);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const html = (status: number, body: string, headers: http.OutgoingHttpHeaders = {}): void =>
      void res.writeHead(status, { 'content-type': 'text/html', ...headers }).end(body);
    this.userAgents.push(req.headers['user-agent'] ?? null);
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    if (path === '/') return html(200, LOGIN_PAGE);
    if (path === '/api/login' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const { email, password } = JSON.parse(body || '{}');
        if (email === 'ann@shop.test' && password === 's3cret') res.writeHead(204, { 'set-cookie': 'session=ann; Path=/' }).end();
        else res.writeHead(401).end();
      });
      return;
    }
    if (path === '/dashboard') {
      return req.headers.cookie?.includes('session=ann')
        ? html(200, page('Dashboard', '<h1>Welcome back, Ann</h1>'))
        : html(302, '', { location: '/' });
    }
    if (path === '/cookie') return html(200, page('Cookie', 'set'), { 'set-cookie': 'visited=yes; Path=/' });
    if (path === '/cookies') return html(200, page('Cookies', `cookies: [${req.headers.cookie ?? ''}]`));
    if (path === '/with-image') return html(200, page('Image', `<img src="${this.imageUrl}"><p>Pictured</p>`));
    if (path === '/broken') return html(500, page('Oops', 'Internal error'));
    if (path === '/hang') return;
    html(404, page('Not found', 'Not found'));
  }
}
