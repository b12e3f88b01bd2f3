import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK, type JWTPayload } from 'jose';

/** The ID token the next code is exchanged for: its claims, of which the test may change any. */
export type IdTokenClaims = Record<string, unknown> & { sub: string; aud: string | string[] };

/** Turns an ID token's claims into the compact token the token endpoint answers. */
export type IdTokenSigner = (claims: JWTPayload) => Promise<string>;

/** A signing key of the provider: the private half, and the public half as published (with its kid). */
export interface PeerKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

/** A fresh RS256 key under a new kid. */
export async function anRsaKey(): Promise<PeerKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' } };
}

/**
 * TEST SUPPORT ONLY: a minimal OpenID Connect provider on loopback (discovery, JWKS and a token
 * endpoint; no authorization UI) that signs the ID token it answers with jose, with whatever claims
 * the test sets. A real provider never issues a token for another audience to a client; this one
 * does, so the tests can show that the relying party itself refuses it. The authorization step is
 * the test's: it reads state and nonce from the authorization URL and calls the callback with a code.
 * A test may also replace how the token is signed (`signer`), what the provider advertises and
 * publishes (`algorithms`, `rotate`), or make its keys unreachable (`jwksStatus`): a provider whose
 * configuration is wrong or compromised.
 */
export class MinimalOidcPeer {
  /** Requests seen, by path (discovery and the keys are counted to prove they are cached). */
  readonly hits = new Map<string, number>();
  /** What the token endpoint answers next (the nonce is filled from the code's authorization). */
  next: IdTokenClaims | null = null;
  /** How the next ID tokens are signed: null for the published key under its kid. */
  signer: IdTokenSigner | null = null;
  /** The discovery document's `id_token_signing_alg_values_supported`. */
  algorithms: string[] = ['RS256'];
  /** What /jwks answers: 200 with the published keys, or this error status. */
  jwksStatus = 200;
  private readonly codes = new Map<string, { nonce: string }>();

  private constructor(
    readonly issuer: string,
    private readonly server: http.Server,
    private current: PeerKey,
  ) {}

  static async start(): Promise<MinimalOidcPeer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const peer = new MinimalOidcPeer(issuer, server, await anRsaKey());
    server.on('request', (req, res) => void peer.answer(req, res));
    return peer;
  }

  /** The key the provider signs with and publishes (alone) at /jwks. */
  get key(): PeerKey {
    return this.current;
  }

  /** A key rotation: from now on the provider publishes and signs with a new key under a new kid. */
  async rotate(): Promise<PeerKey> {
    this.current = await anRsaKey();
    return this.current;
  }

  /** The provider's side of the browser's trip: a code for the authorization URL's nonce; answers the callback's query. */
  authorize(authorizationUrl: string): string {
    const url = new URL(authorizationUrl);
    const code = randomUUID();
    this.codes.set(code, { nonce: url.searchParams.get('nonce')! });
    return `?code=${encodeURIComponent(code)}&state=${encodeURIComponent(url.searchParams.get('state')!)}`;
  }

  /** A back-channel logout token for the subject, signed with the published key. */
  logoutToken(subject: string, audience: string): Promise<string> {
    return new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } })
      .setProtectedHeader({ alg: 'RS256', kid: this.current.jwk.kid!, typ: 'logout+jwt' })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(this.current.privateKey);
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
        id_token_signing_alg_values_supported: this.algorithms,
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
    }
    if (path === '/jwks') {
      return this.jwksStatus === 200 ? json(200, { keys: [this.current.jwk] }) : json(this.jwksStatus, { error: 'unavailable' });
    }
    if (path === '/token' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const code = new URLSearchParams(body).get('code') ?? '';
      const grant = this.codes.get(code);
      this.codes.delete(code);
      if (!grant || !this.next) return json(400, { error: 'invalid_grant' });
      const now = Math.floor(Date.now() / 1000);
      const claims: JWTPayload = { nonce: grant.nonce, ...this.next, iss: this.issuer, iat: now, exp: now + 300 };
      const idToken = await (this.signer ?? this.signed)(claims);
      return json(200, { access_token: randomUUID(), token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    json(404, { error: 'not_found' });
  }

  /** The honest signature: the published key, named by its kid. */
  private readonly signed: IdTokenSigner = (claims) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: this.current.jwk.kid! }).sign(this.current.privateKey);

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
