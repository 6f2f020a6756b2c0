import fc from 'fast-check';
import { isInvalidDeadlineHeader } from './errors';
import { formatDeadlineHeader, parseGrpcTimeout, parseTimeoutMs, readPropagatedTimeout } from './header';

describe('deadline headers', () => {
  it('formats remaining time as whole ms, rounded down, never negative', () => {
    expect(formatDeadlineHeader(173.9)).toBe('173');
    expect(formatDeadlineHeader(-4)).toBe('0');
  });

  it.each([
    ['173m', 173],
    ['2S', 2000],
    ['500000u', 500],
    ['1M', 60_000],
    ['1H', 3_600_000],
    ['5000000n', 5],
  ])('reads grpc-timeout %s as %d ms', (value, ms) => {
    expect(parseGrpcTimeout(value)).toBeCloseTo(ms, 9);
  });

  it.each(['', 'abc', '1.5', '173ms', '1234567890', '0x10', ' '])('rejects x-request-timeout-ms %j, naming the header', (value) => {
    expect(() => parseTimeoutMs(value)).toThrow(/invalid x-request-timeout-ms header/);
  });

  it('says "negative" for negative values', () => {
    expect(() => parseTimeoutMs('-5')).toThrow(/must not be negative/);
    expect(() => parseGrpcTimeout('-5m')).toThrow(/grpc-timeout.*must not be negative/);
  });

  it.each(['173', '173x', '123456789m', 'm'])('rejects grpc-timeout %j', (value) => {
    expect(() => parseGrpcTimeout(value)).toThrow(/invalid grpc-timeout header/);
  });

  it('takes the stricter of the two headers, and nothing when neither is sent', () => {
    expect(readPropagatedTimeout({ 'x-request-timeout-ms': '173', 'grpc-timeout': '2S' })).toBe(173);
    expect(readPropagatedTimeout({ 'x-request-timeout-ms': '900', 'grpc-timeout': '100m' })).toBe(100);
    expect(readPropagatedTimeout({})).toBeUndefined();
  });

  it('rejects a repeated header rather than guessing which copy is meant', () => {
    let caught: unknown;
    try {
      readPropagatedTimeout({ 'x-request-timeout-ms': ['1', '2'] });
    } catch (error) {
      caught = error;
    }
    expect(isInvalidDeadlineHeader(caught)).toBe(true);
  });

  it('round-trips any remaining time within a millisecond', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e8, noNaN: true }), (ms) => {
        const parsed = parseTimeoutMs(formatDeadlineHeader(ms));
        expect(parsed).toBeLessThanOrEqual(ms);
        expect(ms - parsed).toBeLessThan(1);
      }),
    );
  });
});
