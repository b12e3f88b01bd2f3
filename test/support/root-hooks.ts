import 'reflect-metadata';
import { stopTestInfrastructure } from './test-server';

/** Stops the shared server and database after the whole run (started lazily by integration tests). */
export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopTestInfrastructure();
  },
};
