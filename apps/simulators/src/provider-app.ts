import express, { type Express } from 'express';
import { z } from 'zod';
import type { Channel } from '@notify/core';
import type { ChannelBehaviour } from './channel-faults';
import type { Ledger } from './ledger';
import { stableUnit } from './rng';

const messageSchema = z.object({ to: z.string().min(1), message: z.record(z.string(), z.unknown()) });

export interface ProviderAppOptions {
  channel: Channel;
  ledger: Ledger;
  behaviour: () => ChannelBehaviour;
  random: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One simulated provider: `POST /v1/messages` with an `Idempotency-Key` header.
 * Permanent errors belong to the address (a stable hash under `permanentRate` always fails),
 * transient ones are drawn per call. A key already delivered on this channel is answered as
 * delivered again with `replayed: true` and no second delivery; a key whose call is still
 * running answers 409 (in progress). The provider finishes a call even if the caller hung up,
 * as a real one would: that is why a timeout is an unknown outcome.
 */
export function createProviderApp(options: ProviderAppOptions): Express {
  const { channel, ledger } = options;
  const inProgress = new Set<string>();
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '64kb' }));

  app.post('/v1/messages', async (req, res) => {
    const key = req.get('idempotency-key');
    const parsed = messageSchema.safeParse(req.body);
    if (!key || !parsed.success) {
      res.status(400).json({ error: 'bad-request', message: key ? 'body must be {to, message}' : 'Idempotency-Key header is required' });
      return;
    }
    const behaviour = options.behaviour();
    if (inProgress.has(key)) {
      ledger.recordCall(channel, 'in-progress');
      res.status(409).json({ error: 'in-progress', message: 'a call with this key is still being processed' });
      return;
    }
    inProgress.add(key);
    try {
      await sleep(behaviour.latencyMs + (behaviour.mode === 'slow' ? behaviour.slowMs : 0));
      if (ledger.deliveredOn(key, channel)) {
        ledger.recordCall(channel, 'replayed');
        res.status(200).json({ status: 'delivered', replayed: true });
        return;
      }
      if (stableUnit(`${channel}|${parsed.data.to}`) < behaviour.permanentRate) {
        ledger.recordCall(channel, 'permanent');
        res.status(422).json({ error: 'invalid-address', message: `the ${channel} address is not deliverable` });
        return;
      }
      if (options.random() < behaviour.transientRate) {
        ledger.recordCall(channel, 'transient');
        res.status(503).json({ error: 'unavailable', message: 'temporary provider failure' });
        return;
      }
      ledger.recordDelivery(key, channel);
      ledger.recordCall(channel, 'delivered');
      res.status(202).json({ status: 'delivered', replayed: false });
    } finally {
      inProgress.delete(key);
    }
  });
  return app;
}
