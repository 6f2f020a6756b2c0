import type { Operation } from './operation';

/** The admin console, health checks and this document. */
export const OPERATOR_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/admin/queues',
    tag: 'operations',
    auth: 'admin',
    summary: 'bull-board over the six lanes (read-only)',
    description:
      'An HTML application mounted here; its JSON API lives under /admin/queues/api (e.g. /admin/queues/api/queues). ' +
      'The admin key as a Bearer header, or a browser session from /admin/login. A browser without a session is redirected to the sign-in.',
    ok: { 200: { description: 'The board.', contentType: 'text/html' }, 303: { description: 'No session: to /admin/login (HTML requests).' } },
    errors: ['FORBIDDEN', 'METHOD_NOT_ALLOWED'],
  },
  {
    method: 'get',
    path: '/admin/notifications',
    tag: 'operations',
    auth: 'admin',
    summary: 'Search notifications (admin console, HTML)',
    description:
      'By tenant, notification id, event id, recipient id, final status, channel tried and acceptance time; finished ones from the history, one in flight by its id ' +
      "(or event id and recipient id together); 20 a page, with the lanes' live counts beside. Ids, statuses and channels only: never an address or content. " +
      'The admin key as a Bearer header, or a browser session from /admin/login.',
    ok: {
      200: { description: 'The search page.', contentType: 'text/html' },
      303: { description: 'No session: to /admin/login (HTML requests).' },
      400: { description: 'A bad filter, named on the page.', contentType: 'text/html' },
      503: { description: 'The history is disabled or does not answer (the page says so; one in flight is still found by id).', contentType: 'text/html' },
    },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'get',
    path: '/admin/notifications/{id}',
    tag: 'operations',
    auth: 'admin',
    summary: "A notification's timeline (admin console, HTML)",
    description:
      'Accepted, each attempt (channel, provider, kind, outcome, how long), the waits between them, skips and why, receipts, webhook deliveries, and the terminal status, oldest first. ' +
      '`tenant` in the query narrows the look-up to one tenant.',
    query: [{ name: 'tenant', description: 'The tenant the notification belongs to (default: every tenant with a key).', schema: { type: 'string' } }],
    ok: {
      200: { description: 'The timeline.', contentType: 'text/html' },
      303: { description: 'No session: to /admin/login (HTML requests).' },
      404: { description: 'No such notification (the search page says so).', contentType: 'text/html' },
    },
    errors: ['FORBIDDEN'],
  },
  {
    method: 'get',
    path: '/admin/login',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign-in form for the admin console',
    ok: { 200: { description: 'The form.', contentType: 'text/html' }, 303: { description: 'Already signed in: to /admin/queues.' } },
  },
  {
    method: 'post',
    path: '/admin/login',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign in with the admin key (form post)',
    description: 'Constant-time key check, throttled per client address; the session is an HttpOnly, SameSite=Strict cookie.',
    ok: {
      303: { description: 'Signed in: to /admin/queues.' },
      401: { description: 'Not the admin key (the form again).', contentType: 'text/html' },
      403: { description: 'The form expired or came from another site.', contentType: 'text/html' },
      429: { description: 'Too many failed sign-ins from this address (Retry-After).', contentType: 'text/html' },
    },
  },
  {
    method: 'get',
    path: '/admin/logout',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign-out page',
    ok: { 200: { description: 'The sign-out form.', contentType: 'text/html' }, 303: { description: 'No session: to /admin/login.' } },
  },
  {
    method: 'post',
    path: '/admin/logout',
    tag: 'operations',
    auth: 'none',
    summary: 'Sign out (form post with the CSRF token)',
    ok: { 303: { description: 'Signed out: to /admin/login.' }, 403: { description: "Not from this site's sign-out page.", contentType: 'text/html' } },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'operations',
    auth: 'none',
    summary: 'The process is alive',
    ok: { 200: { description: 'Alive.', schema: 'Health' } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'operations',
    auth: 'none',
    summary: 'Redis answers, the start-up warm-up is done and the instance is not draining',
    ok: { 200: { description: 'Ready.', schema: 'Ready' } },
    otherErrors: { 503: { description: 'Draining, warming up (tracking query path, TRACKING_WARMUP_*), or Redis does not answer.', schema: 'Ready' } },
  },
  {
    method: 'get',
    path: '/openapi.json',
    tag: 'operations',
    auth: 'none',
    summary: 'This document',
    ok: { 200: { description: 'OpenAPI 3.1.', contentType: 'application/json' } },
  },
  {
    method: 'get',
    path: '/docs',
    tag: 'operations',
    auth: 'none',
    summary: 'This document in a browser (Swagger UI, served locally)',
    ok: { 200: { description: 'HTML.', contentType: 'text/html' } },
  },
];
