import { AppError } from '../../domain/shared/app-error';
import { isMonitorKind } from '../../domain/monitoring/monitor-kind';
import type { Monitor } from '../../domain/monitoring/monitor';
import { assertMayWrite } from '../../domain/monitoring/ownership';
import { assertSameOwner, type Tag } from '../../domain/monitoring/tag';
import type { Actor } from '../shared/actor';
import { editorOf } from './monitor-editor';
import type { MonitorRepository, RecordRef, TagRepository } from './ports';

export interface MonitorTagInput {
  tagId: RecordRef;
  monitorId: RecordRef;
  /** A MonitorKind (website or a per-kind type); other families answer invalidMonitorType. */
  monitorType: string;
}

/** Resolves the tag and monitor of a /api/monitor-tags call, in that order of codes. */
export async function resolveTagging(
  actor: Actor,
  input: MonitorTagInput,
  tags: TagRepository,
  monitors: MonitorRepository,
): Promise<{ tag: Tag; monitor: Monitor }> {
  assertMayWrite(editorOf(actor));
  if (!isMonitorKind(input.monitorType)) throw new AppError('invalidMonitorType', { monitorType: input.monitorType });
  const tag = await tags.findByRef(actor.scope, input.tagId);
  if (!tag) throw new AppError('tagNotFound');
  const monitor = await monitors.findByRef(actor.scope, input.monitorType, input.monitorId);
  if (!monitor) throw new AppError('monitorNotFound');
  assertSameOwner(tag, monitor);
  return { tag, monitor };
}
