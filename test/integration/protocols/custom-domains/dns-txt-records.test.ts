import { expect } from 'chai';
import { DnsTxtRecords } from '../../../../src/infrastructure/custom-domains/dns-txt-records';
import { ResolverFactory } from '../../../../src/infrastructure/protocols/dns/resolver-factory';
import { DnsPeer } from '../../../support/peers/dns-peer';

describe('DnsTxtRecords (TXT through the configured resolvers)', () => {
  let peer: DnsPeer;
  let txt: DnsTxtRecords;

  before(async () => {
    peer = await new DnsPeer({
      '_monitoring-verify.status.acme.com': { TXT: ['v=spf1 -all', 'mv-0123456789abcdef0123456789abcdef'] },
      'status.acme.com': { A: ['93.184.216.34'] },
    }).start();
    txt = new DnsTxtRecords(new ResolverFactory([peer.address]), 1_000);
  });
  afterEach(() => {
    peer.failing = false;
  });
  after(() => peer.stop());

  it('answers every TXT value of the name', async () => {
    expect(await txt.lookup('_monitoring-verify.status.acme.com')).to.deep.equal({
      values: ['v=spf1 -all', 'mv-0123456789abcdef0123456789abcdef'],
    });
  });

  it('answers no values for a name that does not exist or has no TXT records', async () => {
    expect(await txt.lookup('_monitoring-verify.other.acme.com')).to.deep.equal({ values: [] });
    expect(await txt.lookup('status.acme.com')).to.deep.equal({ values: [] });
  });

  it('answers an error, not "no record", when the resolver fails', async () => {
    peer.failing = true;
    const answer = await txt.lookup('_monitoring-verify.status.acme.com');
    expect(answer).to.deep.equal({ error: 'dns ESERVFAIL' });
  });
});
