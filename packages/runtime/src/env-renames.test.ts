import { z } from 'zod';
import { parseRenamedEnv } from './config-fragments';
import { applyEnvRenames, type EnvRenames } from './env-renames';

const RENAMES: EnvRenames = {
  renamed: { OLD_PORT: 'NEW_PORT' },
  replaced: { SIZE_A: 'set SIZES instead' },
};
const schema = z.object({ NEW_PORT: z.coerce.number().int().default(1), OTHER: z.string().optional() });

describe('env renames', () => {
  it('reads a renamed variable under its new name, with one warning naming the new name', () => {
    const { values, warnings } = parseRenamedEnv('demo', schema, { OLD_PORT: '8080' }, RENAMES);
    expect(values.NEW_PORT).toBe(8080);
    expect(warnings).toEqual(['OLD_PORT is renamed NEW_PORT: read under its old name for this release only; set NEW_PORT instead']);
  });

  it('warns nothing when only the new name is set, and the new name wins an equal old one', () => {
    expect(parseRenamedEnv('demo', schema, { NEW_PORT: '9' }, RENAMES)).toEqual({ values: { NEW_PORT: 9 }, warnings: [] });
    const both = parseRenamedEnv('demo', schema, { NEW_PORT: '9', OLD_PORT: '9' }, RENAMES);
    expect(both.values.NEW_PORT).toBe(9);
    expect(both.warnings).toHaveLength(1);
  });

  it('refuses an old name that contradicts its new one, and a replaced variable, in the one message with every other bad variable', () => {
    expect(() => parseRenamedEnv('demo', schema, { OLD_PORT: '1', NEW_PORT: 'x', SIZE_A: '3' }, RENAMES)).toThrow(
      /^invalid demo configuration:\n {2}OLD_PORT: renamed NEW_PORT, which is set to another value: remove OLD_PORT\n {2}SIZE_A: no longer read: set SIZES instead\n {2}NEW_PORT: /,
    );
  });

  it('never changes the caller’s environment', () => {
    const env = { OLD_PORT: '5' };
    const renamed = applyEnvRenames(env, RENAMES);
    expect(env).toEqual({ OLD_PORT: '5' });
    expect(renamed.env).toEqual({ NEW_PORT: '5' });
  });
});
