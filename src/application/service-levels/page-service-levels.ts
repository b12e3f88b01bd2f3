import { AppError } from '../../domain/shared/app-error';
import { organizationScope, type TenantScope } from '../../domain/shared/tenant-scope';
import type { ServiceLevelObjective } from '../../domain/service-levels/objective';
import type { Actor } from '../shared/actor';
import type { GetObjectiveStatus } from './get-objective-status';
import type { ObjectiveRepository, ObjectiveSubjects } from './ports';

const record = (o: ServiceLevelObjective) => ({ id: o.id, publicId: o.publicId, customerId: o.customerId, name: o.name });

/** The service reading an organization's objectives for one of its status pages (no person, read only). */
const pageReader = (organizationId: number): Actor => ({
  kind: 'apiToken',
  userId: null,
  role: 'readonly',
  scope: organizationScope(organizationId),
  isPlatformAdmin: false,
  isPlatformSupporter: false,
  sessionId: null,
  tokenId: null,
  mfaEnabled: false,
  stepUpVerifiedAt: null,
  agentScopes: [],
});

/**
 * What status pages read of service levels (the status pages context's PageObjectives port): an
 * objective a page may name, and the chosen ones measured by GetObjectiveStatus, the use case of
 * GET /api/service-levels/{id}/status, over their own window, so a page and the API agree.
 */
export class PageServiceLevels {
  constructor(
    private readonly objectives: ObjectiveRepository,
    private readonly subjects: ObjectiveSubjects,
    private readonly status: GetObjectiveStatus,
  ) {}

  async find(scope: TenantScope, ref: string) {
    const objective = await this.objectives.findByRef(scope, ref);
    return objective ? record(objective) : null;
  }

  async existing(organizationId: number, ids: readonly number[]) {
    const found = new Map<number, ReturnType<typeof record>>();
    for (const id of new Set(ids)) {
      const objective = await this.objectives.findByRef(organizationScope(organizationId), String(id));
      if (objective) found.set(id, record(objective));
    }
    return found;
  }

  async measure(organizationId: number, ids: readonly number[]) {
    const measured = [];
    for (const id of ids) {
      const view = await this.status.execute(pageReader(organizationId), { id: String(id) }).catch((error: unknown) => {
        // Deleted since the page named it: left out, as a deleted component is.
        if (error instanceof AppError && error.code === 'serviceLevelObjectiveNotFound') return null;
        throw error;
      });
      if (!view) continue;
      const { objective, level, span } = view;
      measured.push({
        ...record(objective),
        subjectType: objective.subject.type,
        subjectName: await this.subjects.describe(organizationId, objective.subject),
        target: objective.target,
        window: objective.window,
        attainmentPercent: level.attainmentPercent,
        met: level.met,
        windowFrom: span.from,
        windowTo: span.to,
      });
    }
    return measured;
  }
}
