import { isRedisUnavailable } from './redis-unavailable';

class ReplyError extends Error {
  override name = 'ReplyError';
}

describe('isRedisUnavailable', () => {
  it.each([
    // Reply errors a cluster pipeline of writes hands back as is during a failover.
    new ReplyError('MOVED 3999 127.0.0.1:7002'),
    new ReplyError('ASK 3999 127.0.0.1:7002'),
    new ReplyError('CLUSTERDOWN The cluster is down'),
    new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot'),
    new ReplyError('LOADING Redis is loading the dataset in memory'),
    new ReplyError("READONLY You can't write against a read only replica."),
    new ReplyError('UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)'),
    new ReplyError('ERR Error running script (call to f_1): @user_script:12: -READONLY You cannot write against a read only replica.'),
    // ioredis's own.
    new Error('Connection is closed.'),
    new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    new Error('Cluster is disconnected.'),
    new Error('No master node is available for the pipeline'),
    new Error('Node is disconnected'),
    new Error('Failed to refresh slots cache.'),
    new Error('Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down'),
    new Error("Socket timeout. Expecting data, but didn't receive any in 1000ms."),
    Object.assign(new Error('Reached the max retries per request limit (which is 1).'), { name: 'MaxRetriesPerRequestError' }),
    Object.assign(new Error('Failed to refresh slots cache.'), { name: 'ClusterAllFailedError' }),
  ])('reads %s as Redis unavailable', (error) => {
    expect(isRedisUnavailable(error)).toBe(true);
  });

  it('follows a wrapper cause and ioredis lastNodeError', () => {
    expect(isRedisUnavailable(new Error('intake failed', { cause: new ReplyError('CLUSTERDOWN The cluster is down') }))).toBe(true);
    expect(isRedisUnavailable(Object.assign(new Error('refresh'), { lastNodeError: new Error('connect ECONNREFUSED 127.0.0.1:7001') }))).toBe(true);
  });

  it.each([
    new ReplyError("ERR wrong number of arguments for 'evalsha' command"),
    new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'),
    new TypeError("Cannot read properties of undefined (reading 'busy')"),
    new Error('the payload is busy loading'),
    'CLUSTERDOWN as a string is not an error',
  ])('reads %s as a bug, not an outage', (error) => {
    expect(isRedisUnavailable(error)).toBe(false);
  });
});
