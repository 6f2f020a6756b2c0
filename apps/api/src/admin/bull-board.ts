import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import { Router, type RequestHandler } from 'express';

export interface BullBoardOptions {
  /**
   * Read-only board: browse lanes and jobs, but no clean / empty / obliterate / add / promote.
   * Those buttons would drop or inject step jobs behind the notification records' back and
   * break "every accepted notification reaches a terminal state". bull-board refuses every
   * write (retry included) with 405 on a read-only queue, server side, not only in the UI.
   * @defaultValue true
   */
  readOnly?: boolean;
  /** A "Sign out" link in the board's header, for browser sessions. */
  signOutUrl?: string;
}

/**
 * bull-board over the given BullMQ queues, as an Express router. Mount it at the same
 * `basePath` it is built with (the UI builds its asset and API URLs from it), behind the admin
 * key: job payloads are only pointers (notification id, recipient hash), but failure reasons,
 * lane depths and Redis stats are operator data, and a writable board can change the queues.
 */
export function createBullBoardRouter(queues: Queue[], basePath = '/admin/queues', options: BullBoardOptions = {}): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  const readOnlyMode = options.readOnly ?? true;
  const adapterOptions = { readOnlyMode, allowRetries: !readOnlyMode };
  // Several partitions: each lane once per partition, grouped by partition ('partition-03/push-urgent').
  const partitioned = new Set(queues.map((q) => q.opts.prefix)).size > 1;
  createBullBoard({
    queues: queues.map(
      (queue) =>
        new BullMQAdapter(queue, partitioned ? { ...adapterOptions, prefix: `${partitionLabel(queue.opts.prefix)}/`, delimiter: '/' } : adapterOptions),
    ),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'notify lanes',
        hideDocsLink: true, // no link off the operator's network
        ...(options.signOutUrl ? { miscLinks: [{ text: 'Sign out', url: options.signOutUrl }] } : {}),
      },
    },
  });
  // getRouter() is typed `any` upstream; it is an Express application, which mounts like a Router.
  const board = serverAdapter.getRouter() as Router;
  if (!readOnlyMode) return board;
  const router = Router();
  router.use(refuseWrites);
  router.use(board);
  return router;
}

/**
 * Read-only means every write of the board's API, not only those bull-board checks per queue:
 * its "pause all" and "resume all" skip read-only queues and answer 200 with nothing done.
 * Any state-changing method answers 405, in the body bull-board gives its own refusals.
 */
const refuseWrites: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
    next();
    return;
  }
  res
    .status(405)
    .set('allow', 'GET, HEAD')
    .json({ error: { key: 'ERRORS.QUEUE_READ_ONLY' } });
};

/** `partition-<p>` of a lane's BullMQ prefix (`{notify}:q` is partition 0, `{notify:<p>:<n>}:q` partition p; see queuePrefix). */
export function partitionLabel(prefix: string | undefined): string {
  const p = /^\{notify:(\d+):\d+\}:q$/.exec(prefix ?? '')?.[1] ?? '0';
  return `partition-${p.padStart(2, '0')}`;
}
