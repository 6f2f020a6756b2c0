import { parseSuppressionIndexMember, parseSuppressionValue, suppressionIndexKey, suppressionIndexMember, suppressionRequestSchema } from './suppressions';

describe('suppressions', () => {
  it('reads back the value the store and the scripts write; a bare 1 or anything else holds no entry', () => {
    expect(parseSuppressionValue('{"reason":"bounce","at":1796000000000,"recipientId":"u-1"}')).toEqual({
      reason: 'bounce',
      at: 1796000000000,
      recipientId: 'u-1',
    });
    // cjson escapes slashes; JSON reads them back.
    expect(parseSuppressionValue('{"at":1,"reason":"manual","recipientId":"a\\/b"}')).toEqual({ reason: 'manual', at: 1, recipientId: 'a/b' });
    for (const raw of ['1', null, '{"reason":"annoyed","at":1}', '{"reason":"bounce"}', '{broken']) expect(parseSuppressionValue(raw)).toBeUndefined();
  });

  it('names index members and keys without the tenant or an address in clear', () => {
    const rh = 'ab'.repeat(16);
    expect(parseSuppressionIndexMember(suppressionIndexMember(rh, 'sms'))).toEqual({ rh, channel: 'sms' });
    expect(parseSuppressionIndexMember(`${rh}:fax`)).toBeUndefined();
    expect(suppressionIndexKey('tenant-a', 0)).toMatch(/^\{notify\}:si:[0-9a-f]{40}$/);
    expect(suppressionIndexKey('tenant-a', 0)).not.toContain('tenant-a');
  });

  it('refuses a request naming the bad field', () => {
    const issues = (body: object) => {
      const result = suppressionRequestSchema.safeParse(body);
      return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
    };
    expect(issues({ recipientId: 'u', channel: 'email', reason: 'manual' })).toEqual([]);
    expect(issues({ recipientId: 'u', channel: 'email', reason: 'manual', ttlSeconds: 1.5 })).toEqual(['ttlSeconds']);
    expect(issues({ recipientId: 'u', channel: 'email', reason: 'manual', extra: 1 })).toEqual(['']);
  });
});
