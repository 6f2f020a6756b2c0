import { z } from 'zod';
import { booleanEnv } from './config-fragments';

describe('booleanEnv', () => {
  const schema = z.object({ FLAG: booleanEnv(true), OFF: booleanEnv(false) });

  it('reads true/false/1/0 and falls back to its default', () => {
    expect(schema.parse({})).toEqual({ FLAG: true, OFF: false });
    expect(schema.parse({ FLAG: 'false', OFF: '1' })).toEqual({ FLAG: false, OFF: true });
    expect(schema.parse({ FLAG: '0', OFF: 'true' })).toEqual({ FLAG: false, OFF: true });
  });

  it('refuses anything else, naming the field', () => {
    const result = schema.safeParse({ FLAG: 'yes' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['FLAG']);
  });
});
