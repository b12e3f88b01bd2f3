import { expect } from 'chai';
import { contextCycles, contextEdges, contextOf, describeCycles } from '../../../scripts/context-cycles';

const module = (source: string, ...imports: string[]) => ({ source, dependencies: imports.map((resolved) => ({ resolved })) });

describe('npm run lint:deps: no cycles between contexts', () => {
  it('names a file by its layer and context, interfaces/http and interfaces/jobs being layers', () => {
    expect(contextOf('src/domain/checks/check-result.ts')).to.equal('domain/checks');
    expect(contextOf('src/infrastructure/protocols/dns/resolver.ts')).to.equal('infrastructure/protocols');
    expect(contextOf('src/interfaces/http/status-pages/public-views.ts')).to.equal('interfaces/http/status-pages');
    expect(contextOf('src/main/modules/checks.module.ts')).to.equal('main/modules');
    expect(contextOf('src/main/http.ts')).to.equal(undefined);
    expect(contextOf('node_modules/express/index.js')).to.equal(undefined);
  });

  it('finds a cycle through several contexts, with one import for each edge, and none within a context', () => {
    const edges = contextEdges([
      module('src/infrastructure/persistence/entities.ts', 'src/infrastructure/identity/identity.schemas.ts'),
      module('src/infrastructure/identity/identity.schemas.ts', 'src/infrastructure/audit/audit-log.ts'),
      module('src/infrastructure/identity/other.ts', 'src/infrastructure/audit/audit-trail.ts'),
      module('src/infrastructure/audit/audit-log.ts', 'src/infrastructure/persistence/database.ts', 'node:crypto'),
      module('src/infrastructure/persistence/database.ts', 'src/infrastructure/persistence/sql.ts'),
      module('src/domain/checks/a.ts', 'src/domain/shared/b.ts'),
    ]);
    const cycles = contextCycles(edges);
    expect(cycles).to.deep.equal([['infrastructure/audit', 'infrastructure/identity', 'infrastructure/persistence']]);
    expect(describeCycles(edges, cycles).split('\n')).to.deep.equal([
      'cycle between contexts: infrastructure/audit, infrastructure/identity, infrastructure/persistence',
      '  infrastructure/audit -> infrastructure/persistence  (src/infrastructure/audit/audit-log.ts -> src/infrastructure/persistence/database.ts)',
      '  infrastructure/identity -> infrastructure/audit  (src/infrastructure/identity/identity.schemas.ts -> src/infrastructure/audit/audit-log.ts)',
      '  infrastructure/persistence -> infrastructure/identity  (src/infrastructure/persistence/entities.ts -> src/infrastructure/identity/identity.schemas.ts)',
    ]);
  });

  it('finds each cycle apart, and none in a graph that only points one way', () => {
    const twoCycles = contextEdges([
      module('src/application/checks/a.ts', 'src/application/results/ports.ts'),
      module('src/application/results/b.ts', 'src/application/checks/ports.ts'),
      module('src/domain/watches/c.ts', 'src/domain/checks/d.ts'),
      module('src/domain/checks/d.ts', 'src/domain/watches/e.ts'),
    ]);
    expect(contextCycles(twoCycles)).to.deep.equal([
      ['application/checks', 'application/results'],
      ['domain/checks', 'domain/watches'],
    ]);
    const acyclic = contextEdges([
      module('src/main/modules/a.ts', 'src/application/checks/ports.ts', 'src/infrastructure/checks/x.ts'),
      module('src/infrastructure/checks/x.ts', 'src/application/checks/ports.ts', 'src/infrastructure/persistence/sql.ts'),
      module('src/application/checks/ports.ts', 'src/domain/checks/d.ts'),
    ]);
    expect(contextCycles(acyclic)).to.deep.equal([]);
  });
});
