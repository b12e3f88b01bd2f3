import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';

export interface OidcAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface OidcClient {
  client_id: string;
  client_secret: string;
}

/**
 * TEST SUPPORT ONLY: a real OpenID Connect provider (panva's oidc-provider) on loopback. Its
 * interaction step signs in whichever account the test chose (`signInAs`) and grants the requested
 * scopes, so a sign-in runs end to end through real authorization, token and JWKS endpoints.
 */
export class OidcPeer {
  readonly accounts = new Map<string, OidcAccount>();
  private current: string | null = null;

  private constructor(
    readonly issuer: string,
    private readonly server: http.Server,
    private readonly key: CryptoKey,
    private readonly kid: string,
  ) {}

  static async start(redirectUri: string, clients: OidcClient[]): Promise<OidcPeer> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = randomUUID();
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
    const peer = new OidcPeer(issuer, server, privateKey, kid);
    const provider = new Provider(issuer, {
      clients: clients.map((c) => ({
        ...c,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      })),
      jwks: { keys: [jwk] },
      findAccount: (_ctx, id) => {
        const account = peer.accounts.get(id);
        return account ? { accountId: id, claims: () => ({ sub: id, ...account }) } : undefined;
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      pkce: { required: () => true },
      cookies: { keys: ['oidc-peer-test-key'] },
    });
    const callback = provider.callback();
    server.on('request', (req, res) => {
      if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        const accountId = peer.current!;
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      });
    });
    return peer;
  }

  /** The next sign-in at the provider is this account's (created with these claims). */
  signInAs(subject: string, account: OidcAccount): void {
    this.accounts.set(subject, account);
    this.current = subject;
  }

  /**
   * A browser following the provider's redirects (with the provider's cookies) from the authorization
   * URL until it is sent back to `until`; answers that URL.
   */
  async browse(authorizationUrl: string, until: string): Promise<URL> {
    let url = authorizationUrl;
    const jar = new Map<string, string>();
    for (let hop = 0; hop < 10; hop++) {
      if (url.startsWith(until)) return new URL(url);
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const set of response.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const [name, ...value] = pair!.split('=');
        jar.set(name!.trim(), value.join('='));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`the provider answered ${response.status} without a redirect: ${await response.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects at the provider');
  }

  /** A back-channel logout token for the subject, signed with the provider's key. */
  logoutToken(subject: string, audience: string): Promise<string> {
    return new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } })
      .setProtectedHeader({ alg: 'RS256', kid: this.kid, typ: 'logout+jwt' })
      .setIssuer(this.issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(this.key);
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
