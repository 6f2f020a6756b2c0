import express, { type Router } from 'express';
import { z } from 'zod';
import { TARIFF_MODES } from './config';
import type { StoresState } from './state';

const tariffBody = z.object({
  mode: z.enum(TARIFF_MODES, { error: `mode must be one of ${TARIFF_MODES.map((m) => `"${m}"`).join(', ')}` }),
});
const cancellationBody = z.object({ honour: z.boolean({ error: 'honour must be true or false' }) });

function invalid(res: express.Response, error: z.ZodError): void {
  const details = error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', reason: issue.message }));
  res.status(400).json({ error: { code: 'VALIDATION_FAILED', message: details.map((d) => `${d.field}: ${d.reason}`).join('; '), details } });
}

/**
 * Fault injection and observation for chaos runs, tests and the bench:
 * - `POST /control/tariff {"mode":"healthy"|"slow"|"error"}`: AY10 is "slow";
 * - `POST /control/cancellation {"honour":true|false}`: false measures the no-cancellation run;
 * - `POST /control/reset`: back to the configured start, counters cleared;
 * - `GET /control/stats`: per-store counters, abandoned work (ms), work in flight.
 */
export function mountControlRoutes(router: Router, state: StoresState): void {
  const json = express.json({ limit: '1kb' });

  router.get('/control/stats', (_req, res) => {
    res.json({ tariffMode: state.tariffMode, honourCancellation: state.honourCancellation, inFlight: state.stats.inFlight, ...state.stats.snapshot() });
  });

  router.post('/control/tariff', json, (req, res) => {
    const body = tariffBody.safeParse(req.body);
    if (!body.success) return invalid(res, body.error);
    state.tariffMode = body.data.mode;
    res.json({ tariffMode: state.tariffMode });
  });

  router.post('/control/cancellation', json, (req, res) => {
    const body = cancellationBody.safeParse(req.body);
    if (!body.success) return invalid(res, body.error);
    state.honourCancellation = body.data.honour;
    res.json({ honourCancellation: state.honourCancellation });
  });

  router.post('/control/reset', (_req, res) => {
    state.reset();
    res.json({ tariffMode: state.tariffMode, honourCancellation: state.honourCancellation });
  });
}
