import { Router, type Request, type Response } from 'express';
import type { Queue } from 'bullmq';
import { isNotifyError, isTerminal, notificationId, type NotificationView } from '@notify/core';
import { createNotificationLookup } from '@notify/pipeline';
import type { RedisClient } from '@notify/runtime';
import type { WebhookRegistry } from '@notify/webhooks';
import type { HistoryAccess } from '../history-access';
import { parseListQuery } from '../routes/history-query';
import { searchPage, timelinePage, type SearchForm, type SearchPage } from './notification-pages';
import { buildTimeline, webhookEventIds } from './timeline';

export interface NotificationConsoleOptions {
  redis: RedisClient;
  history: HistoryAccess;
  /** The tenants the api has keys for: an admin searches one of them (ids and the history are per tenant). */
  tenants: readonly string[];
  partitions?: number;
  /** Where webhook deliveries are logged, per endpoint. */
  webhooks?: Pick<WebhookRegistry, 'list' | 'deliveries'>;
  queues: Queue[];
  maxListLimit: number;
}

const PAGE_SIZE = 20;
const ID = /^[0-9a-f]{32}$/;
const FIELDS = ['tenant', 'id', 'eventId', 'recipientId', 'status', 'channel', 'since', 'until'] as const;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const reasonOf = (error: unknown) =>
  isNotifyError(error) ? [error.message, ...(error.details ?? []).map((d) => `${d.field}: ${d.reason}`)].join('; ') : 'the search failed';

/**
 * The notification search and timeline of the operator console (`/admin/notifications`), as
 * server-rendered HTML: what the status API shows (ids, channels, outcomes, times), never an
 * address or content. The console's own sign-in guards it (admin only).
 */
export function createNotificationConsole(options: NotificationConsoleOptions): Router {
  const lookup = createNotificationLookup({ redis: options.redis, history: options.history, partitions: options.partitions });
  const tenantsFor = (tenant: string | undefined) => (tenant ? options.tenants.filter((t) => t === tenant) : options.tenants);
  const lanes = () =>
    Promise.all(
      options.queues.map(async (queue) => ({ lane: queue.name, counts: await queue.getJobCounts('waiting', 'active', 'delayed', 'failed').catch(() => ({})) })),
    );
  const find = async (tenant: string | undefined, id: string) => {
    for (const candidate of tenantsFor(tenant)) {
      const view = await lookup.get(candidate, id);
      if (view) return { tenant: candidate, view };
    }
    return undefined;
  };
  const row = (tenant: string, view: NotificationView) => ({ tenant, view, where: isTerminal(view.status) ? ('history' as const) : ('in flight' as const) });

  async function search(req: Request, form: SearchForm): Promise<Pick<SearchPage, 'results' | 'nextHref' | 'message' | 'status'>> {
    if (form.id !== undefined) {
      if (!ID.test(form.id)) return { results: [], message: 'A notification id is 32 lowercase hex characters.', status: 400 };
      const found = await find(form.tenant, form.id);
      return { results: found ? [row(found.tenant, found.view)] : [] };
    }
    const tenant = form.tenant ?? (options.tenants.length === 1 ? options.tenants[0] : undefined);
    if (tenant === undefined || !options.tenants.includes(tenant)) return { message: 'Choose a tenant (or search by notification id).', status: 400 };
    const results: SearchPage['results'] & object = [];
    // One in flight is not in the history yet: its id follows from (tenant, event id, recipient id).
    const cursor = text(req.query.cursor);
    if (form.eventId !== undefined && form.recipientId !== undefined && cursor === undefined) {
      const view = await lookup.get(tenant, notificationId(tenant, form.eventId, form.recipientId));
      if (view) results.push(row(tenant, view));
    }
    try {
      const query: Record<string, string> = { ...definedFields(form), limit: String(PAGE_SIZE), ...(cursor ? { cursor } : {}) };
      delete query.tenant;
      delete query.id;
      const filter = parseListQuery(query, { maxLimit: Math.max(PAGE_SIZE, options.maxListLimit) });
      const page = await options.history.list(tenant, filter);
      for (const view of page.items) if (!results.some((r) => r.view.id === view.id)) results.push(row(tenant, view));
      const next = page.nextCursor ? new URLSearchParams({ ...definedFields(form), tenant, cursor: page.nextCursor }) : undefined;
      return { results, nextHref: next ? `/admin/notifications?${next.toString()}` : undefined };
    } catch (error) {
      const status = isNotifyError(error) ? error.httpStatus : 500;
      return { results, message: reasonOf(error), status: results.length > 0 ? 200 : status };
    }
  }

  const router = Router();
  router.get('/', async (req: Request, res: Response) => {
    const form = Object.fromEntries(FIELDS.map((f) => [f, text(req.query[f])])) as SearchForm;
    const searched = FIELDS.some((f) => form[f] !== undefined);
    const found = searched ? await search(req, form) : {};
    searchPage(res, { tenants: options.tenants, form, lanes: await lanes(), ...found });
  });

  router.get('/:id', async (req: Request, res: Response) => {
    const id = text(req.params.id) ?? '';
    const found = ID.test(id) ? await find(text(req.query.tenant), id) : undefined;
    if (!found) {
      searchPage(res, {
        tenants: options.tenants,
        form: { id },
        lanes: await lanes(),
        results: [],
        message: `No notification ${id} for these tenants.`,
        status: 404,
      });
      return;
    }
    const eventIds = webhookEventIds(found.view);
    const deliveries = [];
    for (const endpoint of (await options.webhooks?.list(found.tenant)) ?? []) {
      for (const delivery of await options.webhooks!.deliveries(endpoint.id))
        if (eventIds.has(delivery.eventId)) deliveries.push({ ...delivery, endpointId: endpoint.id });
    }
    timelinePage(res, found.tenant, found.view, buildTimeline(found.view, deliveries));
  });
  return router;
}

function definedFields(form: SearchForm): Record<string, string> {
  return Object.fromEntries(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
