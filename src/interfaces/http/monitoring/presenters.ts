import { monitorRecord } from '../../../application/monitoring/monitor-records';
import type { ChangeRequest } from '../../../domain/monitoring/change-request';
import type { Tag } from '../../../domain/monitoring/tag';

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

/** Per-kind monitors: the record is defined once, beside the website record it shares its fields with. */
export const presentMonitor = monitorRecord;

export const presentTag = (tag: Tag) => ({
  id: tag.id,
  publicId: tag.publicId,
  organizationId: tag.organizationId,
  customerId: tag.customerId,
  name: tag.name,
  color: tag.color,
  createdAt: iso(tag.createdAt),
  updatedAt: iso(tag.updatedAt),
});

export const presentChangeRequest = (request: ChangeRequest) => ({
  id: request.id,
  publicId: request.publicId,
  organizationId: request.organizationId,
  customerId: request.customerId,
  monitorId: request.monitorId,
  monitorPublicId: request.monitorPublicId,
  monitorType: request.monitorKind,
  action: request.action,
  changes: request.changes,
  note: request.note,
  status: request.status,
  requestedByUserId: request.requestedByUserId,
  decidedByUserId: request.decidedByUserId,
  decisionNote: request.decisionNote,
  decidedAt: iso(request.decidedAt),
  createdAt: iso(request.createdAt),
  updatedAt: iso(request.updatedAt),
});
