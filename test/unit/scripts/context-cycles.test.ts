import { expect } from 'chai';
import { contextCycles, contextEdges, contextOf, describeCycles } from '../../../scripts/context-cycles';

const module = (source: string, ...imports: string[]) => ({ source, dependencies: imports.map((resolved) => ({ resolved })) });

describe('npm run lint:deps: no cycles between contexts', () => {
  it('names a file by its context, whatever its layer or adapter; shared and the composition root are no context', () => {
    expect(contextOf('src/domain/checks/check-result.ts')).to.equal('checks');
    expect(contextOf('src/application/checks/ports.ts')).to.equal('checks');
    expect(contextOf('src/infrastructure/protocols/dns/resolver.ts')).to.equal('protocols');
    expect(contextOf('src/interfaces/http/status-pages/public-views.ts')).to.equal('status-pages');
    expect(contextOf('src/interfaces/jobs/watches/x.job.ts')).to.equal('watches');
    expect(contextOf('src/interfaces/jobs/watches.job.ts')).to.equal(undefined);
    expect(contextOf('src/domain/shared/app-error.ts')).to.equal(undefined);
    expect(contextOf('src/interfaces/http/shared/api-router.ts')).to.equal(undefined);
    expect(contextOf('src/main/modules/checks.module.ts')).to.equal(undefined);
    expect(contextOf('src/main/http.ts')).to.equal(undefined);
    expect(contextOf('node_modules/express/index.js')).to.equal(undefined);
  });

  it('finds a cycle that crosses layers, with one import for each arrow, and none within a context', () => {
    const edges = contextEdges([
      module('src/application/incidents/alert-actions.ts', 'src/domain/results/check-status.ts'),
      module('src/application/incidents/other.ts', 'src/domain/results/more.ts', 'src/domain/incidents/alert.ts'),
      module('src/infrastructure/results/lookup.ts', 'src/application/scheduling/ports.ts', 'node:crypto'),
      module('src/interfaces/http/scheduling/router.ts', 'src/application/incidents/index.ts', 'src/domain/shared/clock.ts'),
      module('src/domain/checks/a.ts', 'src/domain/shared/b.ts'),
      module('src/main/modules/checks.module.ts', 'src/infrastructure/checks/x.ts'),
    ]);
    const cycles = contextCycles(edges);
    expect(cycles).to.deep.equal([['incidents', 'results', 'scheduling']]);
    expect(describeCycles(edges, cycles).split('\n')).to.deep.equal([
      'cycle between contexts: incidents, results, scheduling',
      '  incidents -> results  (src/application/incidents/alert-actions.ts -> src/domain/results/check-status.ts)',
      '  results -> scheduling  (src/infrastructure/results/lookup.ts -> src/application/scheduling/ports.ts)',
      '  scheduling -> incidents  (src/interfaces/http/scheduling/router.ts -> src/application/incidents/index.ts)',
    ]);
  });

  it('finds each cycle apart, and none in a graph that only points one way', () => {
    const twoCycles = contextEdges([
      module('src/application/checks/a.ts', 'src/application/results/ports.ts'),
      module('src/domain/results/b.ts', 'src/domain/checks/d.ts'),
      module('src/domain/watches/c.ts', 'src/domain/tenancy/d.ts'),
      module('src/infrastructure/tenancy/d.ts', 'src/domain/watches/e.ts'),
    ]);
    expect(contextCycles(twoCycles)).to.deep.equal([
      ['checks', 'results'],
      ['tenancy', 'watches'],
    ]);
    const acyclic = contextEdges([
      module('src/main/modules/a.ts', 'src/application/checks/ports.ts', 'src/infrastructure/checks/x.ts'),
      module('src/infrastructure/checks/x.ts', 'src/application/checks/ports.ts', 'src/infrastructure/persistence/sql.ts'),
      module('src/application/checks/ports.ts', 'src/domain/shared/d.ts'),
      module('src/domain/shared/d.ts', 'src/domain/checks/e.ts'),
    ]);
    expect(contextCycles(acyclic)).to.deep.equal([]);
  });
});
