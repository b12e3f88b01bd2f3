import { expect } from 'chai';
import { monitorBodies } from '../../../../src/interfaces/http/monitoring/monitor.schemas';

/** The UDP kind's create and patch bodies, as the edge builds them from its descriptor. */
describe('UDP monitor bodies (from the descriptor)', () => {
  const { create, patch } = monitorBodies('udp');
  const body = { hostname: 'game.example.com', port: 27015, payload: 'status\n' };

  it('takes a payload of up to 1024 characters (an empty datagram too) and requires it and the port at creation', () => {
    expect(create.safeParse(body).success).to.equal(true);
    expect(create.safeParse({ ...body, payload: '' }).success).to.equal(true);
    expect(create.safeParse({ ...body, payload: 'x'.repeat(1024) }).success).to.equal(true);
    expect(create.safeParse({ ...body, payload: 'x'.repeat(1025) }).success).to.equal(false);
    const { payload: _payload, ...noPayload } = body;
    expect(create.safeParse(noPayload).success).to.equal(false);
    const { port: _port, ...noPort } = body;
    expect(create.safeParse(noPort).success).to.equal(false);
  });

  it('takes expectedReply as text of up to 1024 characters or null, and nothing a UDP monitor does not have', () => {
    expect(create.safeParse({ ...body, expectedReply: 'players' }).success).to.equal(true);
    expect(create.safeParse({ ...body, expectedReply: null }).success).to.equal(true);
    expect(create.safeParse({ ...body, expectedReply: 'x'.repeat(1025) }).success).to.equal(false);
    expect(create.safeParse({ ...body, checkMode: 'tcp' }).success).to.equal(false);
    expect(patch.safeParse({ payload: 'ping', expectedReply: null }).success).to.equal(true);
    expect(patch.safeParse({ payload: 1 }).success).to.equal(false);
  });
});
