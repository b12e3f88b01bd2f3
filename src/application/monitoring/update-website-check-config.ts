import { DEFAULT_CHECK_CONFIG, pickCheckConfig, type CheckConfig } from '../../domain/monitoring/check-config';
import type { Actor } from '../shared/actor';
import { loadMonitor } from './load-monitor';
import type { MonitorWriter } from './monitor-writer';
import type { MonitorRepository, RecordRef } from './ports';

/** PATCH /api/websites/{websiteId}/check-config: any of the check fields; answers the whole configuration. */
export class UpdateWebsiteCheckConfig {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly writer: MonitorWriter,
  ) {}

  async execute(actor: Actor, { ref, input }: { ref: RecordRef; input: Record<string, unknown> }): Promise<CheckConfig> {
    const website = await loadMonitor(this.monitors, actor.scope, 'website', ref);
    const updated = await this.writer.update(actor, website, pickCheckConfig(input), null);
    const config = updated.config as Partial<CheckConfig>;
    return Object.fromEntries(
      Object.keys(DEFAULT_CHECK_CONFIG).map((key) => [
        key,
        config[key as keyof CheckConfig] ?? DEFAULT_CHECK_CONFIG[key as keyof CheckConfig],
      ]),
    ) as unknown as CheckConfig;
  }
}
