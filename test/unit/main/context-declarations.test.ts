import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { incidentManagementContext } from '../../../src/main/modules/incident-management.module';
import { onCallContext } from '../../../src/main/modules/on-call.module';
import { IM_AREAS, imAccessGate } from '../../../src/interfaces/http/incident-management/im-access.gate';

const HOST = path.resolve(__dirname, '../../../src/main/http.ts');

describe("what the host's chain knows of a context comes from its module (issue 36)", () => {
  it('the Express host imports nothing of incident management or on-call', () => {
    const imports = fs.readFileSync(HOST, 'utf8').match(/from '[^']+'/g) ?? [];
    expect(imports.filter((line) => /interfaces\/http\/(incident-management|on-call)\//.test(line))).to.deep.equal([]);
  });

  it('incident management declares its ingest: the paths that read their own body, a front path and two POST handlers', () => {
    const [ingest, ...more] = incidentManagementContext.streamedIntakes ?? [];
    expect(more).to.deep.equal([]);
    expect(ingest!.streamsItsBody('/api/im/events')).to.equal(true);
    expect(ingest!.streamsItsBody('/api/im/ingest/wsmi_x')).to.equal(true);
    expect(ingest!.streamsItsBody('/api/im/incidents')).to.equal(false);
    const handlers = ingest!.build({} as never, { admit: async () => undefined });
    expect(handlers.front).to.be.a('function');
    expect(handlers.posts.map(({ path }) => path)).to.deep.equal(['/api/im/events', '/api/im/ingest/:token']);
  });

  it('incident management declares the IM gate over its areas, and each context the path secrets it logs without', () => {
    expect(incidentManagementContext.areaGates).to.deep.equal([{ paths: IM_AREAS, handler: imAccessGate }]);
    expect(incidentManagementContext.redactUrl!('/api/im/ingest/wsmi_secret')).to.equal('/api/im/ingest/[redacted]');
    expect(onCallContext.redactUrl!('/api/im/calendar/wsmcal_secret?x=1')).to.equal('/api/im/calendar/[redacted]?x=1');
  });
});
