import { expect } from 'chai';
import { lazyModule } from '../../../../src/infrastructure/protocols/shared/lazy-module';

describe('lazyModule (a checker library loaded with the first check of its kind)', () => {
  it('loads once, however many checks ask at once, and then answers the module itself (no promise to wait for)', async () => {
    let loads = 0;
    const library = { name: 'the library' };
    const load = lazyModule(async () => {
      loads++;
      return library;
    });
    expect(loads, 'nothing is loaded before the first check').to.equal(0);
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, loads]).to.deep.equal([library, library, 1]);
    expect(load(), 'later checks take it as it is').to.equal(library);
    expect(loads).to.equal(1);
  });

  it('tries again on the next check after a failed load (a package missing then installed)', async () => {
    let loads = 0;
    const load = lazyModule(async () => {
      loads++;
      if (loads === 1) throw new Error('Cannot find module');
      return 'loaded';
    });
    await Promise.resolve(load()).then(
      () => expect.fail('the first load failed'),
      (error: Error) => expect(error.message).to.equal('Cannot find module'),
    );
    expect(await load()).to.equal('loaded');
    expect(loads).to.equal(2);
  });
});
