import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Registry } from 'prom-client';
import { CHANNELS, fieldIssues, isChannel } from '@notify/core';
import { z } from 'zod';
import { behaviourPatchSchema } from './channel-faults';
import type { ProviderFleet } from './provider-fleet';

/**
 * The simulators' control plane (what the chaos CLI and the tests drive):
 *   GET  /control/channels                 every channel's behaviour and whether its port is open
 *   POST /control/channels/:channel        patch {mode, latencyMs, slowMs, transientRate, permanentRate}
 *   POST /control/channels/:channel/restore   back to the configured defaults, port open
 *   POST /control/restore                  every channel back to defaults
 *   GET  /ledger                           calls, outcomes, deliveries, duplicate keys
 *   GET  /ledger/keys/:key                 the deliveries of one idempotency key
 *   POST /ledger/keys                      {keys: [...]} (at most LEDGER_KEYS_MAX): the deliveries of each, in order
 *   POST /ledger/reset
 *   GET  /metrics                          the simulators' own metrics (tracking stores' abandoned work)
 */
/** Keys one `POST /ledger/keys` may ask for: a request stays within the control plane's 16 kB body limit. */
export const LEDGER_KEYS_MAX = 300;
const ledgerKeysSchema = z.object({ keys: z.array(z.string().min(1).max(200)).min(1).max(LEDGER_KEYS_MAX) });

export function createControlApp(fleet: ProviderFleet, registry: Registry): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '16kb' }));

  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/metrics', async (_req, res) => {
    res.set('content-type', registry.contentType).send(await registry.metrics());
  });
  app.get('/control/channels', (_req, res) => {
    res.json(fleet.status());
  });

  app.post('/control/channels/:channel', async (req, res) => {
    const channel = req.params.channel;
    if (!isChannel(channel)) {
      res.status(404).json({ error: 'unknown-channel', message: `unknown channel '${channel}'; expected one of ${CHANNELS.join(', ')}` });
      return;
    }
    const patch = behaviourPatchSchema.safeParse(req.body ?? {});
    if (!patch.success) {
      res.status(400).json({
        error: 'invalid-behaviour',
        details: fieldIssues(patch.error),
      });
      return;
    }
    res.json(await fleet.apply(channel, patch.data));
  });

  app.post('/control/channels/:channel/restore', async (req, res) => {
    const channel = req.params.channel;
    if (!isChannel(channel)) {
      res.status(404).json({ error: 'unknown-channel', message: `unknown channel '${channel}'` });
      return;
    }
    res.json(await fleet.restore(channel));
  });

  app.post('/control/restore', async (_req, res) => {
    for (const channel of CHANNELS) await fleet.restore(channel);
    res.json(fleet.status());
  });

  app.get('/ledger', (_req, res) => {
    res.json(fleet.ledger.summary());
  });
  app.get('/ledger/keys/:key', (req, res) => {
    res.json({ key: req.params.key, deliveries: fleet.ledger.entry(req.params.key) });
  });
  app.post('/ledger/keys', (req, res) => {
    const asked = ledgerKeysSchema.safeParse(req.body ?? {});
    if (!asked.success) {
      res.status(400).json({ error: 'invalid-keys', details: fieldIssues(asked.error) });
      return;
    }
    res.json({ deliveries: asked.data.keys.map((key) => fleet.ledger.entry(key)) });
  });
  app.post('/ledger/reset', (_req, res) => {
    fleet.ledger.reset();
    res.json({ ok: true });
  });

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status ?? 500;
    res.status(status).json({ error: status === 400 ? 'malformed-json' : 'internal', message: (error as Error).message });
  });
  return app;
}
