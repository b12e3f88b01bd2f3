import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { holdUntilClosed, streaming } from '../../../../src/interfaces/http/shared/held-by-response';

const aResponse = () => new http.ServerResponse(new http.IncomingMessage(new net.Socket()));

describe('what a request holds until its response closes (held-by-response)', () => {
  it('is released when the response closes', () => {
    const res = aResponse();
    const released: string[] = [];
    holdUntilClosed(res, () => released.push('scope'));
    holdUntilClosed(res, () => released.push('caller'));
    expect(released).to.deep.equal([]);
    res.emit('close');
    expect(released).to.deep.equal(['scope', 'caller']);
  });

  it('is released as soon as the response becomes a stream, and not a second time by streaming again', () => {
    const res = aResponse();
    let released = 0;
    holdUntilClosed(res, () => (released += 1));
    streaming(res);
    expect(released).to.equal(1);
    streaming(res);
    expect(released).to.equal(1);
  });

  it("leaves another response's holds alone", () => {
    const streamed = aResponse();
    const other = aResponse();
    const released: string[] = [];
    holdUntilClosed(streamed, () => released.push('stream'));
    holdUntilClosed(other, () => released.push('other'));
    streaming(streamed);
    expect(released).to.deep.equal(['stream']);
  });
});
