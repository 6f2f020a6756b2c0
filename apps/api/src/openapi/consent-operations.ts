import { ID_PARAM_ERRORS, JSON_BODY_ERRORS, type Operation } from './operation';

/** Categories, opt-outs and the one-click unsubscribe links (docs/preferences.md). */
export const CONSENT_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1/categories',
    tag: 'recipients',
    auth: 'tenant',
    summary: "This tenant's notification categories",
    description: 'A notification names one in `category`; none means `default` (optional, every channel, unless the tenant redefines it).',
    ok: { 200: { description: 'By id.', schema: 'CategoryList' } },
    errors: ['INTERNAL'],
  },
  {
    method: 'put',
    path: '/v1/categories/{id}',
    tag: 'recipients',
    auth: 'tenant',
    body: 'Category',
    summary: 'Create or replace a category',
    description:
      '`required: true`: opt-outs never apply and its e-mails carry no unsubscribe link (security codes, legal notices). `channels`: the only channels it may use. ' +
      'Other processes see a change within CONSENT_CACHE_MS.',
    ok: { 200: { description: 'Replaced.', schema: 'CategoryView' }, 201: { description: 'Created.', schema: 'CategoryView' } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/categories/{id}',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'One category',
    ok: { 200: { description: 'The category.', schema: 'CategoryView' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'delete',
    path: '/v1/categories/{id}',
    tag: 'recipients',
    auth: 'tenant',
    summary: 'Delete a category',
    description: 'Notifications naming it are refused from then on (400 naming `category`); those already accepted keep it.',
    ok: { 204: { description: 'Deleted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'put',
    path: '/v1/recipients/{id}/preferences',
    tag: 'recipients',
    auth: 'tenant',
    body: 'OptOutPreferences',
    summary: "Replace a recipient's opt-outs",
    description:
      '`false` opts out, `true` in: per channel for every category (`channels`), and per category × channel (`categories`). Taken again at every step: an opt-out ' +
      'recorded while a step waits applies to its call. An unknown category is a 400 naming `categories.<id>`. Each change sends `recipient.opted_out` / `recipient.opted_in`.',
    ok: { 200: { description: 'As stored.', schema: 'Preferences' } },
    errors: [...JSON_BODY_ERRORS, 'INTERNAL'],
  },
  {
    method: 'get',
    path: '/v1/recipients/{id}/preferences',
    tag: 'recipients',
    auth: 'tenant',
    summary: "A recipient's opt-outs",
    description: "None stored (or another tenant's recipient): 404.",
    ok: { 200: { description: 'As stored.', schema: 'Preferences' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'get',
    path: '/u/{token}',
    tag: 'recipients',
    auth: 'none',
    summary: 'The confirmation page of a one-click unsubscribe link',
    description: 'A one-line page whose button POSTs to the same URL. Opening it unsubscribes no one (link scanners open links).',
    ok: { 200: { description: 'The page.', contentType: 'text/html' } },
    errors: ['UNSUBSCRIBE_LINK_INVALID', 'TOO_MANY_ATTEMPTS', 'INTERNAL'],
  },
  {
    method: 'post',
    path: '/u/{token}',
    tag: 'recipients',
    auth: 'none',
    summary: 'One-click unsubscribe (RFC 8058)',
    description:
      "What a mailbox provider POSTs (`List-Unsubscribe=One-Click`) to an e-mail's List-Unsubscribe URL: opts the recipient out of that category on e-mail, idempotently. " +
      'A tampered, expired or rotated-out token is the same 400 whatever the recipient; a client sending many is refused with 429 for a while.',
    ok: { 200: { description: 'Recorded (or already).', contentType: 'text/html' } },
    errors: ['UNSUBSCRIBE_LINK_INVALID', 'TOO_MANY_ATTEMPTS', 'INTERNAL'],
  },
];
