import { AppError } from '../../domain/shared/app-error';
import { vatNumberOf, type VatValidation } from '../../domain/identity/vat-id';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';
import type { OrganizationSettings } from './organization-settings';
import type { VatRegistry, VatValidationStore } from './ports';

export const VAT_VALIDATION_LIMIT: RateLimitRule = { name: 'vat-validation', limit: 10, windowSeconds: 3600 };

/**
 * POST /api/organizations/{id}/vat-id/validate: looks the organization's vatId up in VIES and keeps
 * the answer. Administrators of the organization (and platform administrators); 10 lookups an hour
 * per organization. vatIdMissing (422) without a vatId, invalidRequestBody when no EU member state
 * can be told from it; 503 unavailable when VIES cannot answer now; vatIdChangedDuringValidation
 * (409, retry) when vatId or countryCode were edited while the lookup ran, so an answer about an
 * old number is never stored against a new one.
 */
export class ValidateVatId {
  constructor(
    private readonly settings: OrganizationSettings,
    private readonly registry: VatRegistry,
    private readonly store: VatValidationStore,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, ref: string): Promise<VatValidation> {
    const organization = await this.settings.administered(actor, ref);
    const decision = await this.limiter.hit(VAT_VALIDATION_LIMIT, String(organization.id));
    if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
    if (organization.vatId === null || organization.vatId.trim() === '') throw new AppError('vatIdMissing');
    const lookedUp = { vatId: organization.vatId, countryCode: organization.countryCode };
    const number = vatNumberOf(lookedUp.vatId, lookedUp.countryCode);
    if (!number)
      throw new AppError(
        'invalidRequestBody',
        { field: 'vatId', reason: 'noMemberState' },
        'The vatId names no EU member state (prefix it, e.g. DE123456789, or set countryCode)',
      );
    const answer = await this.registry.check(number);
    if (!answer.ok) {
      if (answer.reason === 'invalidInput')
        throw new AppError('invalidRequestBody', { field: 'vatId', reason: 'rejectedByVies' }, answer.detail);
      throw new AppError('unavailable', { reason: answer.detail });
    }
    const validation: VatValidation = {
      ...number,
      valid: answer.valid,
      name: answer.name,
      address: answer.address,
      checkedAt: this.clock.now(),
    };
    if (!(await this.store.record(organization.id, lookedUp, validation))) throw new AppError('vatIdChangedDuringValidation');
    return validation;
  }
}
