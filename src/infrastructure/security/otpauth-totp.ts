import { Secret, TOTP } from 'otpauth';
import type { TotpService } from '../../application/identity/ports';

/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) accepting one step of clock drift either way. */
export class OtpauthTotp implements TotpService {
  constructor(private readonly issuer: string) {}

  generateSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  uri(secret: string, accountName: string): string {
    return this.totp(secret, accountName).toString();
  }

  verify(secret: string, code: string, now: Date): boolean {
    if (!/^\d{6}$/.test(code)) return false;
    return this.totp(secret).validate({ token: code, timestamp: now.getTime(), window: 1 }) !== null;
  }

  private totp(secret: string, label = 'account'): TOTP {
    return new TOTP({ issuer: this.issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  }
}
