import { tenantsAtFairShare } from './tenant-shares';

const equal = () => 1;

describe('tenantsAtFairShare', () => {
  it('names the flooding tenant, not the one with a few waiting', () => {
    expect([
      ...tenantsAtFairShare(
        new Map([
          ['a', 10_000],
          ['b', 10],
        ]),
        equal,
      ),
    ]).toEqual(['a']);
  });

  it('names a tenant alone (it holds all of the backlog) and both of two equal floods', () => {
    expect([...tenantsAtFairShare(new Map([['a', 5]]), equal)]).toEqual(['a']);
    expect(
      [
        ...tenantsAtFairShare(
          new Map([
            ['a', 500],
            ['b', 500],
          ]),
          equal,
        ),
      ].sort(),
    ).toEqual(['a', 'b']);
  });

  it('weighs the share: weight 3 of 4 may hold three quarters', () => {
    const weights = (t: string) => (t === 'heavy' ? 3 : 1);
    expect([
      ...tenantsAtFairShare(
        new Map([
          ['heavy', 700],
          ['light', 300],
        ]),
        weights,
      ),
    ]).toEqual(['light']);
    expect([
      ...tenantsAtFairShare(
        new Map([
          ['heavy', 800],
          ['light', 200],
        ]),
        weights,
      ),
    ]).toEqual(['heavy']);
  });

  it('leaves out tenants with no backlog, and names none when nothing waits', () => {
    expect(tenantsAtFairShare(new Map([['a', 0]]), equal).size).toBe(0);
    expect(tenantsAtFairShare(new Map(), equal).size).toBe(0);
  });
});
