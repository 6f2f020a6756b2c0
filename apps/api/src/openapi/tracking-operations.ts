import type { Operation } from './operation';

/** The tracking query under its budget (packages/budget-chain). */
export const TRACKING_OPERATIONS: readonly Operation[] = [
  {
    method: 'get',
    path: '/v1/tracking/{shipmentId}',
    tag: 'tracking',
    auth: 'tenant',
    summary: 'Tracking query under its 200 ms budget',
    description: 'A smaller `x-request-timeout-ms` (or `grpc-timeout`) header lowers the budget. See packages/budget-chain/README.md.',
    ok: { 200: { description: 'Delivery status, tariff, measurement and fee, with how the budget was spent.', schema: 'TrackingResponse' } },
    otherErrors: {
      400: { description: 'VALIDATION_FAILED (bad shipment id) or INVALID_DEADLINE_HEADER.', schema: 'TrackingError' },
      502: { description: 'DEPENDENCY_FAILED: a store answered an error; `step` names it.', schema: 'TrackingError' },
      503: {
        description:
          'OVERLOADED (with `reason` and Retry-After): shed before any work while the process could not keep the deadline; CANCELLED: the gateway is shutting down.',
        schema: 'TrackingError',
      },
      504: { description: 'DEADLINE_EXCEEDED: `step` names the step that ran out of time.', schema: 'TrackingError' },
    },
  },
];
