import { Router } from 'express';
import { CHANNELS, NotifyError, ID_PATTERN, LIMITS, parseOrThrow, recipientProfileSchema, type Channel } from '@notify/core';
import type { RecipientStore } from '@notify/pipeline';
import type { ListFilter, ListPage } from '@notify/history';
import { disabledHistory, type HistoryAccess } from '../history-access';
import { DEFAULT_MAX_LIST_LIMIT, parseListQuery } from './history-query';

/** A recipient id from a path, or a 400 naming `field`. */
export function recipientId(raw: unknown, field = 'id'): string {
  const id = String(raw);
  if (id.length === 0 || id.length > LIMITS.recipientIdLength || !ID_PATTERN.test(id)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid recipient id', {
      details: [{ field, reason: `must be 1-${LIMITS.recipientIdLength} characters of letters, digits and . _ : @ - /` }],
    });
  }
  return id;
}

/** A channel from a path, or a 400 naming `channel`. */
export function channelParam(raw: unknown): Channel {
  const channel = String(raw);
  if (!(CHANNELS as readonly string[]).includes(channel)) {
    throw new NotifyError('VALIDATION_FAILED', 'invalid channel', { details: [{ field: 'channel', reason: `must be one of ${CHANNELS.join(', ')}` }] });
  }
  return channel as Channel;
}

/**
 * PUT/GET/DELETE /v1/recipients/:id — stored addresses and preference order, per tenant.
 * GET /v1/recipients/:id/notifications — what was sent to that recipient id (the history; with or without a stored profile),
 *   or with status=scheduled what waits for its sendAt (Redis).
 */
export function recipientsRouter(deps: {
  recipients: RecipientStore;
  history?: HistoryAccess;
  /** `status=scheduled`: the notifications waiting for their sendAt (Redis's due indexes); without it those lists are empty. */
  scheduled?: (tenant: string, filter: ListFilter) => Promise<ListPage>;
  maxListLimit?: number;
  /** The suppression lift (docs/provider-events.md); without it every lift answers 404. */
  suppressions?: { liftSuppression(tenant: string, recipientId: string, channel: Channel): Promise<boolean> };
  /** Remembers a stored SMS number, so an inbound STOP finds the recipient (docs/preferences.md). */
  onSmsNumber?: (tenant: string, recipientId: string, phone: string) => Promise<void>;
}): Router {
  const router = Router();
  const history = deps.history ?? disabledHistory();
  const maxListLimit = deps.maxListLimit ?? DEFAULT_MAX_LIST_LIMIT;

  router.put('/:id', async (req, res) => {
    const id = recipientId(req.params.id);
    if (!req.is('application/json')) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
    const profile = parseOrThrow(recipientProfileSchema, req.body);
    if (Object.keys(profile.addresses).length === 0) {
      throw new NotifyError('VALIDATION_FAILED', 'a recipient needs at least one address', {
        details: [{ field: 'addresses', reason: 'must hold at least one of push, sms, email' }],
      });
    }
    const created = await deps.recipients.put(res.locals.tenant as string, id, profile);
    if (profile.addresses.sms) await deps.onSmsNumber?.(res.locals.tenant as string, id, profile.addresses.sms);
    res.status(created ? 201 : 200).json({ id, ...profile });
  });

  router.get('/:id', async (req, res) => {
    const id = recipientId(req.params.id);
    const profile = await deps.recipients.get(res.locals.tenant as string, id);
    if (!profile) throw new NotifyError('NOT_FOUND', `no recipient '${id}' for this tenant`);
    res.json({ id, ...profile });
  });

  router.get('/:id/notifications', async (req, res) => {
    const filter = parseListQuery(req.query, { maxLimit: maxListLimit, recipientId: recipientId(req.params.id) });
    const tenant = res.locals.tenant as string;
    if (filter.status === 'scheduled') res.json(deps.scheduled ? await deps.scheduled(tenant, filter) : { items: [] });
    else res.json(await history.list(tenant, filter));
  });

  router.delete('/:id', async (req, res) => {
    const id = recipientId(req.params.id);
    if (!(await deps.recipients.delete(res.locals.tenant as string, id))) throw new NotifyError('NOT_FOUND', `no recipient '${id}' for this tenant`);
    res.status(204).end();
  });

  // DELETE /v1/recipients/:id/suppressions/:channel — lift a suppression (a hard bounce, a complaint, a permanent error) before it expires.
  router.delete('/:id/suppressions/:channel', async (req, res) => {
    const id = recipientId(req.params.id);
    const channel = channelParam(req.params.channel);
    if (!deps.suppressions || !(await deps.suppressions.liftSuppression(res.locals.tenant as string, id, channel))) {
      throw new NotifyError('NOT_FOUND', `no suppression of channel '${channel}' for recipient '${id}'`);
    }
    res.status(204).end();
  });

  return router;
}
