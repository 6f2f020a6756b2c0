import { errors as undiciErrors } from 'undici';
import { classifyHttpFailure, networkErrorCode, parseJsonObject, scrubProviderText } from './network-failure';

describe('network failure classification (the simulators client and HTTP SMS)', () => {
  it('a timeout after the request went out is unknown and sent', () => {
    expect(classifyHttpFailure(new Error('aborted'), true, 5)).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    expect(classifyHttpFailure(new undiciErrors.HeadersTimeoutError(), false, 5)).toMatchObject({ outcome: 'unknown', sent: true });
    expect(classifyHttpFailure(new undiciErrors.BodyTimeoutError(), false, 5)).toMatchObject({ outcome: 'unknown', sent: true });
  });

  it('a failure while connecting is transient and not sent; a reset afterwards is unknown', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(classifyHttpFailure(Object.assign(new Error('x'), { code }), false, 1)).toMatchObject({ outcome: 'transient', errorClass: code, sent: false });
    }
    expect(classifyHttpFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), false, 1)).toMatchObject({
      outcome: 'transient',
      sent: false,
    });
    expect(classifyHttpFailure(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false, 1)).toMatchObject({ outcome: 'unknown', sent: true });
    expect(classifyHttpFailure(new undiciErrors.SocketError('other side closed'), false, 1)).toMatchObject({ outcome: 'unknown', sent: true });
  });

  it('never echoes the error message (undici puts the URL there)', () => {
    const result = classifyHttpFailure(Object.assign(new Error('connect ECONNREFUSED http://user:secret@host'), { code: 'ECONNREFUSED' }), false, 1);
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('reads codes from the error, its cause or its name', () => {
    expect(networkErrorCode({ code: 'EPIPE' })).toBe('EPIPE');
    expect(networkErrorCode({ cause: { code: 'ECONNRESET' } })).toBe('ECONNRESET');
    expect(networkErrorCode(new RangeError('x'))).toBe('RangeError');
    expect(networkErrorCode(undefined)).toBe('error');
  });

  it('scrubs credentials, addresses and numbers from provider text, keeping status codes', () => {
    expect(scrubProviderText('550 5.1.1 <ayşe.yılmaz@example.com.tr>: Recipient address rejected')).toBe('550 5.1.1 <<address>>: Recipient address rejected');
    expect(scrubProviderText("The 'To' number +90 555 111 22 33 is not valid")).toBe("The 'To' number <number> is not valid");
    expect(scrubProviderText('failed smtp://mailer:pa55@relay.example.com:587')).toBe('failed smtp://***@relay.example.com:587');
    expect(scrubProviderText('250 2.0.0 Ok: queued as 4FzK2x1Qz')).toBe('250 2.0.0 Ok: queued as 4FzK2x1Qz');
    expect(scrubProviderText('x'.repeat(500))).toHaveLength(200);
  });

  it('parses JSON objects only', () => {
    expect(parseJsonObject('{"sid":"SM1"}')).toEqual({ sid: 'SM1' });
    expect(parseJsonObject('[1]')).toBeUndefined();
    expect(parseJsonObject('<html>')).toBeUndefined();
  });
});
