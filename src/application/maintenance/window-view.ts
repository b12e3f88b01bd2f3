import { AppError } from '../../domain/shared/app-error';
import type { MaintenanceWindow, TargetType } from '../../domain/maintenance/maintenance-window';
import { nextOccurrence, occurrenceAt, type Occurrence, type RecurrenceExpander } from '../../domain/maintenance/occurrences';
import { targetKey, type MaintenanceTargets } from './ports';

/** A window with its targets by public id, and where its series stands now. */
export interface MaintenanceWindowView {
  readonly window: MaintenanceWindow;
  readonly targets: readonly { type: TargetType; id: string }[];
  readonly currentOccurrence: Occurrence | null;
  readonly nextOccurrence: Occurrence | null;
}

/**
 * Builds views of windows. A stored target that no longer exists (its monitor, customer, IP or domain
 * was deleted) makes the window unusable as stored: maintenanceWindowTargetMissing, which retrying
 * cannot cure (the window must be changed or deleted).
 */
export class MaintenanceWindowViews {
  constructor(
    private readonly targets: MaintenanceTargets,
    private readonly expander: RecurrenceExpander,
  ) {}

  async one(window: MaintenanceWindow, now: Date): Promise<MaintenanceWindowView> {
    const existing = await this.targets.existing(window.organizationId, window.targets);
    const missing = window.targets.filter((t) => !existing.has(targetKey(t)));
    if (missing.length > 0) {
      throw new AppError('maintenanceWindowTargetMissing', { windowId: window.publicId, missing: missing.map((t) => t.type) });
    }
    return this.view(window, existing, now);
  }

  /** Many at once; a window that lost a target is listed with the targets that remain. */
  async many(windows: readonly MaintenanceWindow[], now: Date): Promise<MaintenanceWindowView[]> {
    if (windows.length === 0) return [];
    const existing = await this.targets.existing(
      windows[0]!.organizationId,
      windows.flatMap((w) => w.targets),
    );
    return windows.map((window) => this.view(window, existing, now));
  }

  private view(window: MaintenanceWindow, existing: Map<string, { publicId: string }>, now: Date): MaintenanceWindowView {
    return {
      window,
      targets: window.targets.flatMap((t) => {
        const record = existing.get(targetKey(t));
        return record ? [{ type: t.type, id: record.publicId }] : [];
      }),
      currentOccurrence: occurrenceAt(window, now, this.expander),
      nextOccurrence: nextOccurrence(window, now, this.expander),
    };
  }
}
