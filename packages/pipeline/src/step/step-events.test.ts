import pino from 'pino';
import { StepEvent } from './step-events';

const silent = pino({ level: 'silent' });
const ended = (replay: boolean) => ({ notificationId: 'n1', replay });

describe('StepEvent', () => {
  it('tells subscribers in order; a replay only those that asked for replays', async () => {
    const event = new StepEvent<{ notificationId: string; replay: boolean }>('ended', silent);
    const heard: string[] = [];
    event.subscribe((e) => void heard.push(`counter:${e.replay}`));
    event.subscribe((e) => void heard.push(`publisher:${e.replay}`), { replays: true });
    await event.emit(ended(false));
    await event.emit(ended(true));
    expect(heard).toEqual(['counter:false', 'publisher:false', 'publisher:true']);
    expect(event.hasReplaySubscribers).toBe(true);
  });

  it('a subscriber that throws is logged and the others still hear the event; a disposed one hears nothing', async () => {
    const event = new StepEvent<{ notificationId: string; replay: boolean }>('ended', silent);
    const heard: string[] = [];
    event.subscribe(() => {
      throw new Error('broken subscriber');
    });
    const gone = event.subscribe(() => void heard.push('gone'));
    event.subscribe(() => void heard.push('kept'));
    gone.dispose();
    await expect(event.emit(ended(false))).resolves.toBeUndefined();
    expect(heard).toEqual(['kept']);
    expect(event.hasReplaySubscribers).toBe(false);
  });
});
