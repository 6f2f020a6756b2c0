/**
 * ioredis's ways of saying "Redis is not there right now": offline queue off, retries spent,
 * loading; and on a cluster, a failover in progress (CLUSTERDOWN, TRYAGAIN, a MOVED/ASK reply a
 * write pipeline hands back as is, redirections spent, a node's connection closed or its master
 * gone, slots that cannot be refreshed, a WAIT unblocked by a role change). Checked on the error
 * and on its causes (a wrapper's `cause`, ioredis's `lastNodeError`). The api answers these with
 * 503 (retry with the same event id); anything else is a 500.
 */
export function isRedisUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth += 1) {
    if (saysUnavailable(e.message) || saysUnavailable(e.name)) return true;
    const next = (e as { cause?: unknown; lastNodeError?: unknown }).cause ?? (e as { lastNodeError?: unknown }).lastNodeError;
    if (next === e) break;
    e = next;
  }
  return false;
}

// Reply errors start with their code (upper case), or carry it after '-' when a script's call
// failed on an older Redis; ioredis's own errors are matched by their message text.
const REPLY_CODES = /(?:^|[\s-])(?:MOVED \d+|ASK \d+|LOADING|READONLY|MISCONF|BUSY|MASTERDOWN|NOREPLICAS|UNBLOCKED|CLUSTERDOWN|TRYAGAIN)\b/;
const IOREDIS_MESSAGES =
  /MaxRetriesPerRequest|Stream isn't writeable|Connection is closed|Connection is aborted|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|Command timed out|Socket timeout|ClusterAllFailed|Too many Cluster redirections|Cluster isn't ready|Cluster is disconnect|Node is disconnected|No master node is available|Failed to refresh slots cache|None of startup nodes/i;
const saysUnavailable = (text: string) => REPLY_CODES.test(text) || IOREDIS_MESSAGES.test(text);
