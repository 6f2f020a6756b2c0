import { isNotifyError } from './errors';
import { expiresAtOf, expiresAtSchema } from './expiry';

const NOW = Date.parse('2026-12-01T10:00:00Z');
const fieldOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (isNotifyError(error)) return error.details?.[0]?.field;
    throw error;
  }
  return undefined;
};

describe('expiresAtOf', () => {
  it('reads expiresAt with its offset, or ttlSeconds after now, or none', () => {
    expect(expiresAtOf({ expiresAt: '2026-12-01T13:10:00+03:00' }, NOW)).toBe(NOW + 10 * 60_000);
    expect(expiresAtOf({ ttlSeconds: 600 }, NOW)).toBe(NOW + 600_000);
    expect(expiresAtOf({}, NOW)).toBeUndefined();
  });

  it('refuses naming the field: both given, not after now, not after sendAt', () => {
    expect(fieldOf(() => expiresAtOf({ expiresAt: '2027-01-01T00:00:00Z', ttlSeconds: 5 }, NOW))).toBe('ttlSeconds');
    expect(fieldOf(() => expiresAtOf({ expiresAt: '2026-12-01T10:00:00Z' }, NOW))).toBe('expiresAt');
    expect(fieldOf(() => expiresAtOf({ ttlSeconds: 60 }, NOW, NOW + 60_000))).toBe('ttlSeconds');
    expect(fieldOf(() => expiresAtOf({ ttlSeconds: 61 }, NOW, NOW + 60_000))).toBeUndefined();
  });
});

describe('expiresAtSchema', () => {
  it('takes RFC 3339 with an offset only', () => {
    for (const ok of ['2026-12-01T10:00:00Z', '2026-12-01T10:00:00.123+03:00']) expect(expiresAtSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['2026-12-01T10:00:00', '2026-12-01', 'soon', '2026-13-01T10:00:00Z']) expect(expiresAtSchema.safeParse(bad).success).toBe(false);
  });
});
