import { scrubProviderText } from './network-failure';

const URL_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
/** Device tokens, access tokens, JWTs, subscription keys: long runs of token characters. */
const TOKEN_TEXT = /[A-Za-z0-9_\-:.=/+]{40,}/g;

/**
 * A push service's text made safe for a SendResult: besides `scrubProviderText` (credentials,
 * e-mail addresses, phone numbers), URLs (a Web Push endpoint is the address itself) and long
 * token-like runs (device tokens, bearer tokens, keys) are removed.
 */
export function scrubPushText(text: string, maxLength = 200): string {
  return scrubProviderText(text.replace(URL_TEXT, '<url>').replace(TOKEN_TEXT, '<token>'), maxLength);
}
