import type { EngineMetrics } from '../../../src/application/observability/ports';

/** The engine's metrics port as a list of what it was told. */
export class FakeEngineMetrics implements EngineMetrics {
  readonly checks: Array<{ kind: string; location: string; status: string; latenessMs: number }> = [];
  readonly rounds: Array<{ recorded: number; dropped: number }> = [];

  checkRan(kind: string, location: string, status: string, latenessMs: number): void {
    this.checks.push({ kind, location, status, latenessMs });
  }

  resultsRecorded(recorded: number, dropped: number): void {
    this.rounds.push({ recorded, dropped });
  }
}
