import type { OwnWorkerLiveness } from '../incidents/ports';
import type { CheckDispatcher } from './check-dispatcher';

/**
 * The process's own check worker as the incidents context sees it: the liveness its lease keeps,
 * known without asking (none until the host builds the process's dispatcher, or while it is not registered).
 */
export class OwnCheckWorker implements OwnWorkerLiveness {
  private dispatcher: Pick<CheckDispatcher, 'liveness'> | null = null;

  attach(dispatcher: Pick<CheckDispatcher, 'liveness'>): void {
    this.dispatcher = dispatcher;
  }

  current(): ReturnType<OwnWorkerLiveness['current']> {
    return this.dispatcher?.liveness() ?? null;
  }
}
