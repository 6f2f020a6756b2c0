import { Router } from 'express';
import { CHANNELS, NotifyError, parseOrThrow, suppressionRequestSchema, validationError, type Channel, type FieldIssue } from '@notify/core';
import type { SuppressionFilter, SuppressionStore } from '@notify/pipeline';
import { DEFAULT_LIST_LIMIT } from './history-query';
import { channelParam, recipientId } from './recipients';

/** The list's query fields; any other is a 400 naming it. */
const QUERY_FIELDS = ['channel', 'cursor', 'limit'] as const;
/** A page holds at most this many suppressions. */
export const MAX_SUPPRESSION_LIST_LIMIT = 100;

function parseQuery(query: Record<string, unknown>): SuppressionFilter {
  const issues: FieldIssue[] = [];
  const filter: SuppressionFilter = { limit: DEFAULT_LIST_LIMIT };
  for (const [name, raw] of Object.entries(query)) {
    if (!(QUERY_FIELDS as readonly string[]).includes(name))
      issues.push({ field: name.slice(0, 100), reason: `is not a filter of this list (known: ${QUERY_FIELDS.join(', ')})` });
    else if (typeof raw !== 'string') issues.push({ field: name, reason: 'must be given once' });
    else if (name === 'channel') {
      if ((CHANNELS as readonly string[]).includes(raw)) filter.channel = raw as Channel;
      else issues.push({ field: name, reason: `must be one of ${CHANNELS.join(', ')}` });
    } else if (name === 'limit') {
      if (/^\d{1,4}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_SUPPRESSION_LIST_LIMIT) filter.limit = Number(raw);
      else issues.push({ field: name, reason: `must be a whole number from 1 to ${MAX_SUPPRESSION_LIST_LIMIT}` });
    } else if (raw.length > 0 && raw.length <= 400) filter.cursor = raw;
    else issues.push({ field: name, reason: 'must be a nextCursor of a previous page' });
  }
  if (issues.length > 0) throw validationError(issues);
  return filter;
}

/**
 * GET/POST /v1/suppressions and DELETE /v1/suppressions/:recipientId/:channel — the tenant's
 * suppression list (docs/preferences.md, "Suppressions"): what the platform no longer sends to,
 * why (bounce, complaint, expired-subscription, manual) and until when. Recipients appear by
 * their id and hash, never an address; another tenant's are neither listed nor lifted.
 */
export function suppressionsRouter(deps: { store: SuppressionStore; defaultTtlSeconds: number }): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    res.json(await deps.store.list(res.locals.tenant as string, parseQuery(req.query)));
  });

  router.post('/', async (req, res) => {
    if (!req.is('application/json')) throw new NotifyError('UNSUPPORTED_MEDIA_TYPE', 'send the body as Content-Type: application/json');
    const body = parseOrThrow(suppressionRequestSchema, req.body);
    const ttlSeconds = body.ttlSeconds ?? deps.defaultTtlSeconds;
    // PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS=0 turns the default off: the entry needs its own.
    if (ttlSeconds <= 0) throw validationError([{ field: 'ttlSeconds', reason: 'is required: PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS is 0 (no default)' }]);
    const { created, suppression } = await deps.store.add(res.locals.tenant as string, body.recipientId, body.channel, body.reason, ttlSeconds);
    res.status(created ? 201 : 200).json(suppression);
  });

  router.delete('/:recipientId/:channel', async (req, res) => {
    const id = recipientId(req.params.recipientId, 'recipientId');
    const channel = channelParam(req.params.channel);
    if (!(await deps.store.lift(res.locals.tenant as string, id, channel))) {
      throw new NotifyError('NOT_FOUND', `no suppression of channel '${channel}' for recipient '${id}'`);
    }
    res.status(204).end();
  });

  return router;
}
