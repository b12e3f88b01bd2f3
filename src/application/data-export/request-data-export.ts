import { AppError } from '../../domain/shared/app-error';
import { assertMayRequest, unknownRecipients, type DataExport } from '../../domain/data-export/data-export';
import { type Actor, requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { DataExportRepository, DataExportSettings, ExportJobTrigger, OrganizationMembers } from './ports';

/**
 * POST /api/organization/data-export: queues an export of the organization's data (administrators).
 * Recipients of the download link must be members (invalidExportRecipient, data.unknown); without
 * any, the link goes to the requester. One export at a time (exportAlreadyRunning) and one per
 * cooldown (exportCooldown); allowed while the organization is suspended.
 */
export class RequestDataExport {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly members: OrganizationMembers,
    private readonly trigger: ExportJobTrigger,
    private readonly settings: DataExportSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { recipientEmails?: readonly string[] }): Promise<DataExport> {
    requireAction(actor, 'dataExport.request');
    const organizationId = actor.scope.organizationId;
    const members = await this.members.list(organizationId);
    const recipients = [...new Set(input.recipientEmails ?? [])];
    const unknown = unknownRecipients(
      recipients,
      members.map((m) => m.email),
    );
    if (unknown.length > 0) throw new AppError('invalidExportRecipient', { unknown });
    const now = this.clock.now();
    assertMayRequest(
      await this.exports.running(organizationId),
      await this.exports.lastNotFailed(organizationId),
      now,
      this.settings.cooldownHours,
    );
    const requester = members.find((m) => m.userId === actor.userId)?.email;
    const queued: DataExport = {
      id: this.ids.uuid(),
      organizationId,
      requestedBy: actor.userId,
      status: 'queued',
      recipientEmails: recipients.length > 0 ? recipients : requester ? [requester] : [],
      rowsDone: 0,
      rowsTotal: null,
      attempts: 0,
      fileBytes: null,
      error: null,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
    };
    if (!(await this.tx.run((tx) => this.exports.add(queued, tx)))) {
      const running = await this.exports.running(organizationId);
      assertMayRequest(running, null, now, this.settings.cooldownHours);
      throw new AppError('conflict');
    }
    await this.trigger.generateSoon();
    return queued;
  }
}
