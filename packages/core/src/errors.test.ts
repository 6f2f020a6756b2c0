import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG, NotifyError, isNotifyError, validationError } from './errors';

describe('error catalog', () => {
  it('maps every code to a 4xx/5xx status and is documented in the README', () => {
    const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
    for (const [code, entry] of Object.entries(ERROR_CATALOG)) {
      expect(entry.httpStatus).toBeGreaterThanOrEqual(400);
      expect(entry.httpStatus).toBeLessThan(600);
      expect(readme).toContain(`\`${code}\``);
    }
  });

  it('recognises its own errors and nothing else', () => {
    const error = validationError([{ field: 'eventId', reason: 'required' }]);
    expect(isNotifyError(error)).toBe(true);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain('eventId: required');
    expect(isNotifyError(new Error('x'))).toBe(false);
    expect(isNotifyError({ code: 'VALIDATION_FAILED' })).toBe(false);
    expect(new NotifyError('SHUTTING_DOWN', 'bye').retryable).toBe(true);
  });
});
