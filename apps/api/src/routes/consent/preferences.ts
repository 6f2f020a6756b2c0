import { Router } from 'express';
import { DEFAULT_CATEGORY, NotifyError, optOutPreferencesSchema, parseOrThrow, validationError } from '@notify/core';
import type { ConsentSettings, OptOutChange, OptOutStore } from '@notify/pipeline';
import { recipientId } from '../recipients';

/** Told of every switch a PUT changed (the `recipient.opted_out` / `recipient.opted_in` webhook events). */
export type OptOutListener = (
  tenant: string,
  recipient: { id?: string; rh: string },
  change: OptOutChange,
  source: 'api' | 'one-click' | 'sms-stop',
) => Promise<void>;

/**
 * PUT/GET /v1/recipients/:id/preferences — opt-outs per channel and per category × channel
 * (docs/preferences.md). A category the tenant does not have is a 400 naming it.
 */
export function preferencesRouter(deps: { settings: ConsentSettings; optOuts: OptOutStore; onChange?: OptOutListener }): Router {
  const router = Router();

  router.put('/:id/preferences', async (req, res) => {
    const id = recipientId(req.params.id);
    const tenant = res.locals.tenant as string;
    if (!req.is('application/json')) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
    const preferences = parseOrThrow(optOutPreferencesSchema, req.body);
    const known = new Set((await deps.settings.listCategories(tenant)).map((c) => c.id).concat(DEFAULT_CATEGORY));
    const unknown = Object.keys(preferences.categories ?? {}).filter((c) => !known.has(c));
    if (unknown.length > 0) throw validationError(unknown.map((c) => ({ field: `categories.${c}`, reason: `no category '${c}' for this tenant` })));
    const changes = await deps.optOuts.put(tenant, id, preferences);
    for (const change of changes) await deps.onChange?.(tenant, { id, rh: deps.optOuts.recipientHash(tenant, id) }, change, 'api');
    res.json({ id, ...((await deps.optOuts.get(tenant, id)) ?? { channels: {}, categories: {} }) });
  });

  router.get('/:id/preferences', async (req, res) => {
    const id = recipientId(req.params.id);
    const preferences = await deps.optOuts.get(res.locals.tenant as string, id);
    if (!preferences) throw new NotifyError('NOT_FOUND', `no preferences stored for recipient '${id}'`);
    res.json({ id, ...preferences });
  });

  return router;
}
