import { join } from 'node:path';
import type { RedisClient } from '@notify/runtime';
import { defineLuaCommands, type LuaCommand } from '../lua-commands';
import { backlogOf, laneTagsKey, priorityOf } from './lane-tags';

export const FAIR_SHARE_SCRIPTS = ['tag-lane-1', 'advance-lane-1'] as const;
export const FAIR_SHARE_LUA_DIR = join(__dirname, 'lua');

/** A lane as the tags see it: its BullMQ queue's `prefix:name` (the tags hash sits beside it, in its slot). */
export interface TaggedLane {
  qualifiedName: string;
}

/** How often a worker moves the virtual time of the lanes whose jobs it took. */
export const ADVANCE_INTERVAL_MS = 250;

/**
 * The lanes' fair-share tags in Redis (lane-tags.ts). Tagging is one small script per job added
 * (the finish tag must be exact across every process adding jobs of a tenant, so it is not
 * cached); the virtual time follows the jobs taken through one `max` per lane and
 * ADVANCE_INTERVAL_MS at most, whatever the number of jobs (V lags by that much at worst: a
 * tenant arriving meanwhile starts a little behind, never ahead).
 */
export class LaneFairShare {
  private readonly command: (name: (typeof FAIR_SHARE_SCRIPTS)[number]) => LuaCommand;
  private readonly taken = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private advancing: Promise<void> = Promise.resolve();

  constructor(private readonly redis: RedisClient) {
    this.command = defineLuaCommands(redis, FAIR_SHARE_LUA_DIR, 'notify_fair', FAIR_SHARE_SCRIPTS);
  }

  /** Tags a job of `steps` steps of `tenant` (weight 0: the one last given for it in this lane); its priority and start tag. */
  async tag(lane: TaggedLane, tenant: string | undefined, steps: number, weight: number): Promise<{ priority: number; start: number }> {
    const [start, v] = (await this.command('tag-lane-1')(laneTagsKey(lane.qualifiedName), tenant ?? '', steps, weight)) as [string, string];
    return { priority: priorityOf(Number(start), Number(v)), start: Number(start) };
  }

  /** A job with start tag `start` was taken from the lane: its virtual time will move up to it. */
  started(lane: TaggedLane, start: number | undefined): void {
    if (start === undefined || !Number.isFinite(start)) return;
    const key = laneTagsKey(lane.qualifiedName);
    if ((this.taken.get(key) ?? Number.NEGATIVE_INFINITY) >= start) return;
    this.taken.set(key, start);
    this.timer ??= setTimeout(() => void this.advance(), ADVANCE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Sends the pending moves of virtual time now (one call per lane); a failed one is kept for the next. */
  advance(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const moves = [...this.taken];
    this.taken.clear();
    this.advancing = this.advancing.then(() =>
      Promise.all(
        moves.map(([key, start]) =>
          this.command('advance-lane-1')(key, start).catch(() => {
            if ((this.taken.get(key) ?? Number.NEGATIVE_INFINITY) < start) this.taken.set(key, start);
          }),
        ),
      ).then(() => undefined),
    );
    return this.advancing;
  }

  /** Each tenant's backlog in the lane, in steps (its finish tag's lead over V, times its weight); tenants at V are left out. */
  async backlog(lane: TaggedLane): Promise<Map<string, number>> {
    const fields = await this.redis.hgetall(laneTagsKey(lane.qualifiedName));
    const v = Number(fields.v ?? 0);
    const out = new Map<string, number>();
    for (const [field, value] of Object.entries(fields)) {
      if (!field.startsWith('f:')) continue;
      const tenant = field.slice(2);
      const steps = backlogOf(v, Number(value), Number(fields[`w:${tenant}`] ?? 1));
      if (steps > 0) out.set(tenant, steps);
    }
    return out;
  }
}

/** Every tenant's backlog in every given lane (the backlog gauge's read): one HGETALL per lane. */
export async function laneTenantBacklogs(tags: LaneFairShare, lanes: readonly (TaggedLane & { name: string })[]) {
  const per = await Promise.all(lanes.map(async (lane) => [...(await tags.backlog(lane))].map(([tenant, steps]) => ({ lane: lane.name, tenant, steps }))));
  return per.flat();
}
