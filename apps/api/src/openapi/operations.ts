import { CONSENT_OPERATIONS } from './consent-operations';
import { NOTIFICATION_OPERATIONS } from './notification-operations';
import type { Operation } from './operation';
import { OPERATOR_OPERATIONS } from './operator-operations';
import { PROVIDER_EVENT_OPERATIONS } from './provider-event-operations';
import { SUPPRESSION_OPERATIONS } from './suppression-operations';
import { TRACKING_OPERATIONS } from './tracking-operations';
import { WEBHOOK_OPERATIONS } from './webhook-operations';

export type { Operation, QueryParameter } from './operation';

/**
 * The api's routes, once. The document is built from this table, and a test walks the
 * Express app and fails when a route is missing here (or listed here and not served). Each
 * area's routes live in their own file; their order here is the document's order.
 */
export const OPERATIONS: readonly Operation[] = [
  ...NOTIFICATION_OPERATIONS,
  ...CONSENT_OPERATIONS,
  ...SUPPRESSION_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...PROVIDER_EVENT_OPERATIONS,
  ...TRACKING_OPERATIONS,
  ...OPERATOR_OPERATIONS,
];
