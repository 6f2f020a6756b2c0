import { request as undiciRequest, type Dispatcher } from 'undici';
import { elapsedMs, type SendResult } from './adapter';
import { classifyHttpFailure } from './network-failure';

/** A provider's answer, read whole. */
export interface HttpAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One POST (undici `request()`) bounded by `timeoutMs` from the call to the last byte of the
 * answer. A call that fails (refused, reset, our timeout) is answered as its SendResult, timed
 * from `started`: unknown when the request may have reached the provider.
 */
export async function postWithin(
  url: string,
  options: { headers: Record<string, string>; body: string | Buffer | undefined; dispatcher: Dispatcher; timeoutMs: number; started: number },
): Promise<HttpAnswer | { failure: SendResult }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  try {
    const response = await undiciRequest(url, {
      method: 'POST',
      headers: options.headers,
      body: options.body,
      dispatcher: options.dispatcher,
      signal: abort.signal,
    });
    return { statusCode: response.statusCode, headers: response.headers, text: await response.body.text() };
  } catch (error) {
    return { failure: classifyHttpFailure(error, abort.signal.aborted, elapsedMs(options.started)) };
  } finally {
    clearTimeout(timer);
  }
}
