import { expect } from 'chai';
import { Container } from 'inversify';
import { checkContainer, declaredNeeds } from '../../../src/main/container-check';
import { ROUTERS } from '../../../src/main/http';
import { JOBS } from '../../../src/main/jobs';
import { testServer } from '../../support/test-server';

describe('the container check (every need a router, intake or job declares resolves)', () => {
  it("resolves every declared need of the service's composition root", async () => {
    const { container } = await testServer();
    const total = declaredNeeds().reduce((sum, { needs }) => sum + Object.keys(needs).length, 0);
    expect(total).to.be.greaterThan(200);
    expect(checkContainer(container)).to.equal(total);
  });

  it('covers every router and job the host mounts', () => {
    const owners = declaredNeeds().map(({ owner }) => owner);
    expect(owners.filter((owner) => owner.startsWith('router '))).to.have.length(ROUTERS.length);
    expect(owners.filter((owner) => owner.startsWith('job '))).to.have.length(JOBS.length);
  });

  it('names each need a container cannot provide, so a missing binding stops the start', () => {
    expect(() => checkContainer(new Container())).to.throw(/cannot provide what the host needs:\n.*needs \w+/);
  });
});
