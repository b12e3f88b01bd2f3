import { expect } from 'chai';
import { monitorBodies } from '../../../../src/interfaces/http/monitoring/monitor.schemas';

/** The WebSocket kind's create and patch bodies, as the edge builds them from its descriptor. */
describe('WebSocket monitor bodies (from the descriptor)', () => {
  const { create, patch } = monitorBodies('websocket');
  const body = { hostname: 'live.example.com' };

  it('needs only the hostname; the port is optional (the protocol port by default) and transport is tls or plain', () => {
    expect(create.safeParse(body).success).to.equal(true);
    expect(create.safeParse({ ...body, port: 8443, transport: 'plain', path: '/feed?x=1' }).success).to.equal(true);
    expect(create.safeParse({ ...body, port: null }).success).to.equal(true);
    expect(create.safeParse({ ...body, transport: 'starttls' }).success).to.equal(false);
    expect(create.safeParse({ ...body, path: 'x'.repeat(2049) }).success).to.equal(false);
    expect(create.safeParse({}).success).to.equal(false);
  });

  it('takes message and expectedMessage as text of up to 1024 characters or null, and nothing a WebSocket monitor does not have', () => {
    expect(create.safeParse({ ...body, message: 'ping', expectedMessage: 'pong' }).success).to.equal(true);
    expect(create.safeParse({ ...body, message: null, expectedMessage: null }).success).to.equal(true);
    expect(create.safeParse({ ...body, message: 'x'.repeat(1025) }).success).to.equal(false);
    expect(create.safeParse({ ...body, credentials: { username: 'a', password: 'b' } }).success).to.equal(false);
    expect(create.safeParse({ ...body, checkMode: 'tcp' }).success).to.equal(false);
    expect(patch.safeParse({ expectedMessage: null, path: '/' }).success).to.equal(true);
    expect(patch.safeParse({ message: 1 }).success).to.equal(false);
  });
});
