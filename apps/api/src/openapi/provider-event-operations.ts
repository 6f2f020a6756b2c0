import { ID_PARAM_ERRORS, type Operation } from './operation';

/** Provider events in and the suppressions they cause (docs/provider-events.md). */
export const PROVIDER_EVENT_OPERATIONS: readonly Operation[] = [
  {
    method: 'delete',
    path: '/v1/recipients/{id}/suppressions/{channel}',
    tag: 'recipients',
    auth: 'tenant',
    summary: "Lift a channel's suppression for a recipient",
    description:
      'A hard bounce, a complaint or a permanent error suppresses (recipient, channel) for PROVIDER_EVENT_SUPPRESSION_TTL_SECONDS or CASCADE_SUPPRESSION_TTL_SECONDS; this lifts it now. 404 when none. See docs/provider-events.md.',
    ok: { 204: { description: 'Lifted.' } },
    errors: ID_PARAM_ERRORS,
  },
  {
    method: 'post',
    path: '/v1/providers/{provider}/events',
    tag: 'operations',
    auth: 'none',
    body: 'ProviderEvent',
    summary: 'Provider events in: receipts, bounces, complaints',
    description:
      'Authenticated per provider by its shared secret (PROVIDER_EVENT_SECRETS; `Authorization: Bearer <secret>`, or Basic with the secret as password), or for a status callback by its X-Twilio-Signature keyed with that secret; not a tenant key. ' +
      'SNS message signatures are verified (certificates from SNS_SIGNING_CERT_HOSTS only). An event changes only an attempt made by that provider on its channel. ' +
      'Takes the generic JSON shape, SNS-style notifications (also as text/plain) and HTTP SMS status callbacks (form-encoded MessageSid/MessageStatus). ' +
      'An inbound SMS (MessageSid/From/Body) saying STOP opts the stored profiles with that number out of SMS (docs/preferences.md). ' +
      'Idempotent by (provider, notification, event id). An unknown provider is a 404, a wrong secret a 401, a bad body a 400 naming the field. See docs/provider-events.md.',
    ok: {
      200: { description: 'applied, duplicate or ignored.', schema: 'ProviderEventResult' },
      202: {
        description:
          'unmatched: no notification this provider sent has that message id; refused: another provider made that attempt (acknowledged so the provider does not retry).',
        schema: 'ProviderEventResult',
      },
    },
    errors: ['VALIDATION_FAILED', 'MALFORMED_JSON', 'UNAUTHORIZED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INTERNAL'],
  },
];
