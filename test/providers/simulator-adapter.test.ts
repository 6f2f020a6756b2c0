import { renderForChannel, type Channel } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { SimulatorAdapter, type SendRequest } from '@notify/providers';
import { ProviderFleet } from '../../apps/simulators/src/provider-fleet';
import type { ChannelBehaviour } from '../../apps/simulators/src/channel-faults';

/** The simulators' provider fleet (the real provider apps, on free loopback ports) behind SimulatorAdapter. */
const calm: ChannelBehaviour = { mode: 'up', latencyMs: 0, slowMs: 0, transientRate: 0, permanentRate: 0 };
const defaults: Record<Channel, ChannelBehaviour> = { push: calm, sms: calm, email: calm };

let fleet: ProviderFleet;
let urls: Record<Channel, string>;
const adapters: SimulatorAdapter[] = [];

function adapter(channel: Channel, timeoutMs = 2_000): SimulatorAdapter {
  const created = new SimulatorAdapter({ kind: 'simulator', name: `${channel}-sim`, channel, url: urls[channel], connections: 4, timeoutMs });
  adapters.push(created);
  return created;
}

let seq = 0;
function smsRequest(to = '+905551112233'): SendRequest {
  seq += 1;
  const id = `n-${Date.now()}-${seq}`;
  return {
    notificationId: id,
    idempotencyKey: `key-${id}`,
    to,
    message: renderForChannel('sms', { title: 'Kargo', body: 'Kargonuz yolda, şoförümüz çıktı' }, { smsMaxSegments: 3 }),
    priority: 'reminder',
  };
}

beforeAll(async () => {
  fleet = new ProviderFleet({ host: '127.0.0.1', ports: { push: 0, sms: 0, email: 0 }, seed: 7, defaults });
  urls = await fleet.start();
});

afterEach(async () => {
  await fleet.restore('sms');
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await fleet.stop();
});

describe('SimulatorAdapter against the simulators provider app', () => {
  it('declares what the simulators promise', () => {
    const sms = adapter('sms');
    expect(sms).toMatchObject({ kind: 'simulator', name: 'sms-sim', channel: 'sms' });
    expect(sms.capabilities).toEqual({ idempotencyKey: true, lookup: true, receipts: false, echoesIdempotencyKey: true });
  });

  it('delivers once and replays the same idempotency key without a second delivery', async () => {
    const sms = adapter('sms');
    const request = smsRequest();
    const first = await sms.send(request);
    expect(first).toMatchObject({ outcome: 'delivered', sent: true, replayed: false });
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    const again = await sms.send(request);
    expect(again).toMatchObject({ outcome: 'delivered', sent: true, replayed: true });
    expect(fleet.ledger.entry(request.idempotencyKey)).toHaveLength(1);
  });

  it('answers a provider failure as transient and a dead address as permanent with addressInvalid', async () => {
    const sms = adapter('sms');
    await fleet.apply('sms', { transientRate: 1 });
    expect(await sms.send(smsRequest())).toMatchObject({ outcome: 'transient', errorClass: 'unavailable', sent: true });
    await fleet.apply('sms', { transientRate: 0, permanentRate: 1 });
    const permanent = await sms.send(smsRequest('+905559998877'));
    expect(permanent).toMatchObject({ outcome: 'permanent', errorClass: 'invalid-address', sent: true, addressInvalid: true });
    expect(JSON.stringify(permanent)).not.toContain('905559998877');
  });

  it('a refused connection is transient and provably not sent', async () => {
    const sms = adapter('sms');
    await fleet.apply('sms', { mode: 'down' });
    const result = await sms.send(smsRequest());
    expect(result).toMatchObject({ outcome: 'transient', errorClass: 'ECONNREFUSED', sent: false });
  });

  it('a timeout after the request went out is unknown, and the re-send reconciles (replayed)', async () => {
    const sms = adapter('sms', 200);
    await fleet.apply('sms', { mode: 'slow', slowMs: 600 });
    const request = smsRequest();
    const result = await sms.send(request);
    expect(result).toMatchObject({ outcome: 'unknown', errorClass: 'timeout', sent: true });
    // The provider finishes the call although the caller hung up, as a real one would.
    await waitFor('the slow provider to finish the call', () => fleet.ledger.entry(request.idempotencyKey).length === 1);
    await fleet.apply('sms', { mode: 'up', slowMs: 0 });
    // The re-send (the reconciliation) through an adapter with the default timeout: a busy machine must not time it out.
    expect(await adapter('sms').send(request)).toMatchObject({ outcome: 'delivered', replayed: true });
  });

  it('refuses a message of another channel (a programming error)', async () => {
    await expect(adapter('email').send(smsRequest())).rejects.toThrow(/sends email, not sms/);
  });
});
