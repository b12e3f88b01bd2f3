import { expect } from 'chai';
import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { requestLog } from '../../../src/interfaces/http/shared/request-log';
import { withoutIngestToken } from '../../../src/interfaces/http/incident-management/streamed-bodies';
import { waitFor } from '../../support/wait-for';

describe('alert-source tokens in logs', () => {
  it('are cut out of ingest URLs', () => {
    expect(withoutIngestToken('/api/im/ingest/wsmi_secret123?x=1')).to.equal('/api/im/ingest/[redacted]?x=1');
    expect(withoutIngestToken('/api/im/incidents')).to.equal('/api/im/incidents');
  });

  it('never reach the request log', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = express();
    app.use(requestLog(pino({ level: 'info' }, sink), { redactUrl: withoutIngestToken }));
    app.post('/api/im/ingest/:token', (_req, res) => {
      res.status(202).end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      await fetch(`http://127.0.0.1:${port}/api/im/ingest/wsmi_topsecret`, { method: 'POST' });
      await waitFor(() => lines.length > 0, { what: 'the request line' });
      expect(lines.join('')).to.include('/api/im/ingest/[redacted]').and.not.include('wsmi_topsecret');
    } finally {
      server.close();
    }
  });
});
