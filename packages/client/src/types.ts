import type { components, paths } from './generated/api';

/** The api's schemas, as the OpenAPI document names them (generated: `npm run client:types`). */
export type Schemas = components['schemas'];

export type NotificationRequest = Schemas['NotificationRequest'];
export type Accepted = Schemas['Accepted'];
export type BatchResult = Schemas['BatchResult'];
export type NotificationView = Schemas['NotificationView'];
export type NotificationPage = Schemas['NotificationPage'];
export type RecipientProfile = Schemas['RecipientProfile'];
export type Recipient = Schemas['Recipient'];
export type Category = Schemas['Category'];
export type CategoryView = Schemas['CategoryView'];
export type CategoryList = Schemas['CategoryList'];
export type OptOutPreferences = Schemas['OptOutPreferences'];
export type Preferences = Schemas['Preferences'];
export type SuppressionRequest = Schemas['SuppressionRequest'];
export type Suppression = Schemas['Suppression'];
export type SuppressionPage = Schemas['SuppressionPage'];
export type WebhookEndpointRequest = Schemas['WebhookEndpointRequest'];
export type WebhookEndpointCreated = Schemas['WebhookEndpointCreated'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointList = Schemas['WebhookEndpointList'];
export type WebhookDeliveryList = Schemas['WebhookDeliveryList'];
export type WebhookRetry = Schemas['WebhookRetry'];
/** A code of the api's error catalog. */
export type ApiErrorCode = Schemas['Error']['error']['code'];

type Operation<P extends string, M extends string> = P extends keyof paths ? (M extends keyof paths[P] ? NonNullable<paths[P][M]> : never) : never;
type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
type OkAnswer<O> = O extends { responses: infer R } ? JsonOf<R[200 & keyof R]> | JsonOf<R[201 & keyof R]> | JsonOf<R[202 & keyof R]> : never;

/**
 * The JSON a route answers on success, from the generated paths; `Fallback` while the document
 * does not describe the route yet (a route added to the api after these types were generated).
 */
export type RouteAnswer<P extends string, M extends string, Fallback = never> = [Operation<P, M>] extends [never] ? Fallback : OkAnswer<Operation<P, M>>;

/** A route's query parameters, from the generated paths. */
export type RouteQuery<P extends keyof paths, M extends keyof paths[P]> =
  NonNullable<paths[P][M]> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The filters of `GET /v1/notifications` (without the cursor: the iterator pages itself). */
export type ListQuery = Omit<RouteQuery<'/v1/notifications', 'get'>, 'cursor'>;
/** The filters of `GET /v1/recipients/{id}/notifications`. */
export type RecipientListQuery = Omit<RouteQuery<'/v1/recipients/{id}/notifications', 'get'>, 'cursor'>;

/** The filters of `GET /v1/suppressions`. */
export type SuppressionListQuery = Omit<RouteQuery<'/v1/suppressions', 'get'>, 'cursor'>;

/** What `DELETE /v1/notifications/{id}` answers (its generated type once the document has the route). */
export type Cancellation = RouteAnswer<'/v1/notifications/{id}', 'delete', NotificationView>;
/** What `DELETE /v1/notifications?eventId=` answers (its generated type once the document has the route). */
export type EventCancellation = RouteAnswer<'/v1/notifications', 'delete', Record<string, unknown>>;

/** The statuses a notification ends in (a receipt may still move delivered to bounced or complained). */
export const TERMINAL_STATUSES: readonly NotificationView['status'][] = [
  'delivered',
  'failed',
  'unconfirmed',
  'bounced',
  'complained',
  'canceled',
  'expired',
  'opted-out',
];
