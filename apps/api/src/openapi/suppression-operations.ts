import { CHANNELS } from '@notify/core';
import { ID_PARAM_ERRORS, JSON_BODY_ERRORS, type Operation } from './operation';

/** The tenant's suppression list (docs/preferences.md, "Suppressions"). */
export const SUPPRESSION_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1/suppressions',
    tag: 'recipients',
    auth: 'tenant',
    summary: "This tenant's suppressed (recipient, channel) pairs",
    description:
      'What the platform does not send to until it expires or is lifted, with the reason and the time: the worker adds them (a hard bounce, a complaint, a dead address or push subscription), a tenant with POST. ' +
      'Recipients appear by id and hash, never by address. Expired ones are not listed.',
    query: [
      { name: 'channel', description: 'Only this channel.', schema: { type: 'string', enum: [...CHANNELS] } },
      { name: 'limit', description: 'Items per page: 1 to 100 (default 50).', schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { name: 'cursor', description: "A previous page's nextCursor (anything else is a 400 naming cursor).", schema: { type: 'string' } },
    ],
    ok: { 200: { description: 'One page; `nextCursor` when there is more.', schema: 'SuppressionPage' } },
    errors: ['VALIDATION_FAILED', 'INTERNAL'],
  },
  {
    method: 'post',
    path: '/v1/suppressions',
    tag: 'recipients',
    auth: 'tenant',
    body: 'SuppressionRequest',
    summary: "Suppress a recipient's channel",
    description:
      'Steps on that channel are skipped (reason `suppressed`, no budget spent) until it expires. Suppressing again replaces the reason and the expiry.',
    ok: { 201: { description: 'Suppressed.', schema: 'Suppression' }, 200: { description: 'Was suppressed; replaced.', schema: 'Suppression' } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'delete',
    path: '/v1/suppressions/{recipientId}/{channel}',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'Lift a suppression',
    description: "Like DELETE /v1/recipients/{id}/suppressions/{channel}. None (or another tenant's recipient): 404.",
    ok: { 204: { description: 'Lifted.' } },
    errors: ID_PARAM_ERRORS,
  },
];
