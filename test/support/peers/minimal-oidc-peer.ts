import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

/** The ID token the next code is exchanged for: its claims, of which the test may change any. */
export type IdTokenClaims = Record<string, unknown> & { sub: string; aud: string | string[] };

/**
 * TEST SUPPORT ONLY: a minimal OpenID Connect provider on loopback (discovery, JWKS and a token
 * endpoint; no authorization UI) that signs the ID token it answers with jose, with whatever claims
 * the test sets. A real provider never issues a token for another audience to a client; this one
 * does, so the tests can show that the relying party itself refuses it. The authorization step is
 * the test's: it reads state and nonce from the authorization URL and calls the callback with a code.
 */
export class MinimalOidcPeer {
  /** Requests seen, by path (discovery is counted to prove it is cached). */
  readonly hits = new Map<string, number>();
  /** What the token endpoint answers next (the nonce is filled from the code's authorization). */
  next: IdTokenClaims | null = null;
  private readonly codes = new Map<string, { nonce: string }>();

  private constructor(
    readonly issuer: string,
    private readonly server: http.Server,
    private readonly key: CryptoKey,
    private readonly jwk: JWK,
  ) {}

  static async start(): Promise<MinimalOidcPeer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    const peer = new MinimalOidcPeer(issuer, server, privateKey, jwk);
    server.on('request', (req, res) => void peer.answer(req, res));
    return peer;
  }

  /** The provider's side of the browser's trip: a code for the authorization URL's nonce; answers the callback's query. */
  authorize(authorizationUrl: string): string {
    const url = new URL(authorizationUrl);
    const code = randomUUID();
    this.codes.set(code, { nonce: url.searchParams.get('nonce')! });
    return `?code=${encodeURIComponent(code)}&state=${encodeURIComponent(url.searchParams.get('state')!)}`;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.issuer).pathname;
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (path === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    if (path === '/jwks') return json(200, { keys: [this.jwk] });
    if (path === '/token' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const code = new URLSearchParams(body).get('code') ?? '';
      const grant = this.codes.get(code);
      this.codes.delete(code);
      if (!grant || !this.next) return json(400, { error: 'invalid_grant' });
      const { sub, aud, ...claims } = this.next;
      const idToken = await new SignJWT({ nonce: grant.nonce, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: this.jwk.kid! })
        .setIssuer(this.issuer)
        .setSubject(sub)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(this.key);
      return json(200, { access_token: randomUUID(), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
