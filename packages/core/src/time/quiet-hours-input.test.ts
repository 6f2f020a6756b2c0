import { NotifyError } from '../errors';
import { notificationRequestSchema, recipientProfileSchema } from '../schemas';
import { parseOrThrow } from '../validation';

const request = (recipient: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  eventId: 'order-1',
  priority: 'reminder',
  recipient: { id: 'u1', addresses: { email: 'a@example.com' }, ...recipient },
  content: { title: 't', body: 'b' },
  ...extra,
});

function detailsOf(schema: Parameters<typeof parseOrThrow>[0], input: unknown) {
  try {
    parseOrThrow(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(NotifyError);
    return (error as NotifyError).details;
  }
  throw new Error('accepted');
}

describe('time zone and quiet hours as input', () => {
  it('accepts IANA names, UTC and a window crossing midnight', () => {
    for (const timeZone of ['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5']) {
      expect(() => parseOrThrow(notificationRequestSchema, request({ timeZone, quietHours: { start: '22:00', end: '08:00' } }))).not.toThrow();
    }
    expect(() => parseOrThrow(notificationRequestSchema, request({}, { priority: 'urgent', respectQuietHours: true }))).not.toThrow();
  });

  it('refuses an unknown time zone, naming the field', () => {
    for (const timeZone of ['Mars/Olympus_Mons', 'Europe/Berlinn', '+01:00', '', 'Europe/../etc']) {
      expect(detailsOf(notificationRequestSchema, request({ timeZone }))).toEqual([
        { field: 'recipient.timeZone', reason: expect.stringContaining('IANA time zone') },
      ]);
    }
    expect(detailsOf(recipientProfileSchema, { addresses: { email: 'a@example.com' }, timeZone: 'Nowhere/City' })).toEqual([
      { field: 'timeZone', reason: expect.stringContaining('IANA') },
    ]);
  });

  it('refuses malformed quiet hours, naming the field', () => {
    const quiet = (quietHours: unknown) => detailsOf(notificationRequestSchema, request({ quietHours }));
    expect(quiet({ start: '24:00', end: '08:00' })).toEqual([{ field: 'recipient.quietHours.start', reason: expect.stringContaining('HH:MM') }]);
    expect(quiet({ start: '22:00', end: '8:00' })).toEqual([{ field: 'recipient.quietHours.end', reason: expect.stringContaining('HH:MM') }]);
    expect(quiet({ start: '22:00', end: '22:00' })).toEqual([{ field: 'recipient.quietHours.end', reason: expect.stringContaining('differ') }]);
    expect(quiet({ start: '22:00' })).toEqual([{ field: 'recipient.quietHours.end', reason: expect.any(String) }]);
    expect(quiet('22:00-08:00')).toEqual([{ field: 'recipient.quietHours', reason: expect.any(String) }]);
    expect(detailsOf(notificationRequestSchema, request({}, { respectQuietHours: 'yes' }))).toEqual([
      { field: 'respectQuietHours', reason: expect.any(String) },
    ]);
  });
});
