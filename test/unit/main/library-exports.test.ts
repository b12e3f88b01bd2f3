import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import * as library from '../../../src/index';

const applicationRoot = path.resolve(__dirname, '../../../src/application');

/**
 * The modules of every context: src/application/<context>/*.ts. A folder inside a context holds the
 * parts of one use case (the dispatcher's collaborators), reached through that use case, not exported.
 */
const modulesUnder = (dir: string, depth = 0): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return depth === 0 ? modulesUnder(full, depth + 1) : [];
    return entry.name.endsWith('.ts') ? [full] : [];
  });

describe('the library entry (src/index.ts)', () => {
  it('exports every value of every application module under its own name, none shadowed by another', () => {
    const exported = library as unknown as Record<string, unknown>;
    const missing: string[] = [];
    let values = 0;
    for (const file of modulesUnder(applicationRoot)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require(file) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (name === '__esModule') continue;
        values++;
        if (exported[name] !== value) missing.push(`${name} (${path.relative(applicationRoot, file)})`);
      }
    }
    expect(missing).to.deep.equal([]);
    expect(values).to.be.greaterThan(150);
  });

  it("exposes each context's use cases as classes the library resolves", () => {
    const useCases = [
      'SignUp',
      'ApiTokens',
      'CreateCustomer',
      'ListCustomers',
      'CreateMonitor',
      'UpdateMonitor',
      'ListWebsites',
      'RecordHeartbeat',
      'RunCheck',
      'RunPublicTool',
      'GetScreenshot',
      'TriggerCheck',
      'GetCheckHistory',
      'GetUptimeStats',
      'ListIncidents',
      'AcknowledgeIncident',
      'ResolveIncident',
      'RecordCheckResult',
      'RegisterAgent',
      'ListConnections',
      'RunWatches',
    ];
    const exported = library as unknown as Record<string, unknown>;
    expect(useCases.filter((name) => typeof exported[name] !== 'function')).to.deep.equal([]);
    expect(library.openMonitoringLibrary).to.be.a('function');
    expect(library.startCheckWorker).to.be.a('function');
  });
});
