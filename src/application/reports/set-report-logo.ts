import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { logoType, MAX_LOGO_BYTES } from '../../domain/reports/report-logo';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { ReportBranding } from './ports';

/**
 * PUT / DELETE /api/organization/report-logo: the logo on the first page of every report of the
 * organization (null removes it). PNG or JPEG, told by its bytes, at most 512 KB.
 */
export class SetReportLogo {
  constructor(
    private readonly branding: ReportBranding,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, { image }: { image: Uint8Array | null }): Promise<void> {
    requireAction(actor, 'report.update');
    if (image === null) return this.tx.run((tx) => this.branding.setLogo(actor.scope.organizationId, null, this.clock.now(), tx));
    const contentType = logoType(image);
    if (!contentType || image.length > MAX_LOGO_BYTES) {
      throw new AppError('validationFailed', {
        issues: [{ path: ['image'], message: 'A PNG or JPEG image of at most 512 KB, base64-encoded', code: 'custom' }],
      });
    }
    await this.tx.run((tx) => this.branding.setLogo(actor.scope.organizationId, { contentType, bytes: image }, this.clock.now(), tx));
  }
}
