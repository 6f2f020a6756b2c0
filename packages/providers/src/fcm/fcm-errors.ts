import { classifyProviderStatus } from '@notify/core';
import type { SendResult } from '../adapter';
import { scrubPushText } from '../push-text';

/** An outcome before it is timed and marked sent. */
export type Classified = Omit<SendResult, 'durationMs' | 'sent'>;

/** What FCM's error answer means (`error.details[].errorCode`, else `error.status`, else the HTTP status). */
export function classifyFcmError(status: number, body: Record<string, unknown> | undefined): Classified {
  const error = (body?.error ?? {}) as { status?: unknown; message?: unknown; details?: unknown };
  const details = Array.isArray(error.details) ? (error.details as { errorCode?: unknown }[]) : [];
  const errorCode = details.map((detail) => detail?.errorCode).find((code): code is string => typeof code === 'string');
  const code = errorCode ?? (typeof error.status === 'string' ? error.status : undefined);
  const said = typeof error.message === 'string' ? `: ${scrubPushText(error.message, 160)}` : '';
  switch (code) {
    case 'UNREGISTERED':
      return {
        outcome: 'permanent',
        errorClass: code,
        message: 'the device token is no longer registered (app uninstalled or token rotated)',
        addressInvalid: true,
      };
    case 'INVALID_ARGUMENT':
      return { outcome: 'permanent', errorClass: code, message: `FCM refused the message or the token as invalid${said}` };
    case 'SENDER_ID_MISMATCH':
      return { outcome: 'permanent', errorClass: code, message: 'configuration error: the token belongs to another Firebase project than the service account' };
    case 'THIRD_PARTY_AUTH_ERROR':
      return {
        outcome: 'permanent',
        errorClass: code,
        message: 'configuration error: the APNs certificate or auth key (or Web Push key) in the Firebase project was refused',
      };
    case 'PERMISSION_DENIED':
      return {
        outcome: 'permanent',
        errorClass: code,
        message: 'configuration error: the service account may not send for this project (cloudmessaging.messages.create)',
      };
    case 'UNAUTHENTICATED':
      return { outcome: 'permanent', errorClass: code, message: 'configuration error: FCM refused a freshly issued access token' };
    case 'QUOTA_EXCEEDED':
    case 'UNAVAILABLE':
    case 'INTERNAL':
      return { outcome: 'transient', errorClass: code, message: `FCM answered ${status} ${code}` };
  }
  const outcome = classifyProviderStatus(status);
  return { outcome, errorClass: code ?? `http-${status}`, message: `FCM answered ${status}${said}` };
}

/** The token endpoint refused or failed (RFC 6749 §5.2 error answers). */
export function classifyTokenAnswer(status: number, answer: Record<string, unknown> | undefined): Classified {
  const error = typeof answer?.error === 'string' ? answer.error.slice(0, 40) : undefined;
  const description = typeof answer?.error_description === 'string' ? `: ${scrubPushText(answer.error_description, 120)}` : '';
  if (status === 429 || status >= 500) {
    return { outcome: 'transient', errorClass: `oauth-http-${status}`, message: `the token endpoint answered ${status}` };
  }
  return {
    outcome: 'permanent',
    errorClass: `oauth-${error ?? `http-${status}`}`,
    message: `configuration error: the token endpoint refused the service account (${error ?? status}${description})`,
  };
}
