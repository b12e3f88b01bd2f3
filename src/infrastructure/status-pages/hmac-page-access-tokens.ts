import { createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { PageAccessTokens } from '../../application/status-pages/ports';

/**
 * `<expiry seconds>.<HMAC-SHA256(page's access secret, "<page id>.<expiry>")>`: the key is the
 * page's own random secret, which changes with the password, so a new password signs everyone out.
 */
export class HmacPageAccessTokens implements PageAccessTokens {
  constructor(private readonly lifetimeMs: number) {}

  issue(page: StatusPage, now: Date): string {
    const expires = Math.floor((now.getTime() + this.lifetimeMs) / 1000);
    return `${expires}.${this.mac(page, expires)}`;
  }

  verify(page: StatusPage, token: string | undefined, now: Date): boolean {
    const [expiresText, mac] = (token ?? '').split('.');
    if (!expiresText || !mac || !/^\d{1,12}$/.test(expiresText)) return false;
    const expires = Number(expiresText);
    if (expires * 1000 <= now.getTime()) return false;
    const expected = Buffer.from(this.mac(page, expires));
    const given = Buffer.from(mac);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private mac(page: StatusPage, expires: number): string {
    return createHmac('sha256', page.accessSecret).update(`${page.publicId}.${expires}`).digest('base64url');
  }
}
