/**
 * A server this kit starts for one run (a test file, a scenario, `npm start`): on a port and
 * data directory of its own, never the machine's shared instance, so a test may kill, pause or
 * restart it. Each kind (redis-server today; PostgreSQL and a local Redis Cluster next) is a
 * `startPrivate<Kind>(options)` factory that ensures its binaries, starts its processes in a
 * ProcessGroup, waits until it answers, and returns one of these.
 */
export interface PrivateService {
  /** What it is, for messages: 'redis-server on 127.0.0.1:41234'. */
  readonly name: string;
  /** How clients reach it (redis://..., postgres://...). */
  readonly url: string;
  /** Stops every process it started and removes its data unless asked to keep it; safe to call twice. */
  stop(): Promise<void>;
}
