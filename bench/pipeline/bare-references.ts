import { join } from 'node:path';
import { startPrivateRedis, type ManagedProcess } from '@notify/platform-kit';
import { withRedis, type BenchContext } from './context';
import { BENCH_API_KEY, startBenchPlatform } from './platform-start';
import { holdIntake, measureTwoHop, prefillTwoHop, type IntakeResult, type TwoHopResult } from './references';
import { startReference } from './services';

/** The bare two-hop BullMQ pipeline, prefilled and drained at its ceiling (Redis without persistence). */
export async function runTwoHop(ctx: BenchContext): Promise<TwoHopResult> {
  const { seconds, settle, workers, latency } = ctx.options;
  ctx.log('reference: bare two-hop BullMQ pipeline (prefilled, drained at its ceiling)');
  const group = ctx.phase();
  const redis = await startPrivateRedis({ group, env: ctx.inherited, dataDir: join(ctx.dir, 'two-hop'), persistence: 'none', signal: ctx.signal });
  const jobs = Math.round(4_000 * (seconds + settle + 2));
  await withRedis(redis.url, (r) => prefillTwoHop(r, jobs));
  const hops: { url: string; child: ManagedProcess }[] = [];
  for (let i = 0; i < workers; i += 1) {
    const env = { REDIS_URL: redis.url, CONCURRENCY: '100', LATENCY_MS: latency };
    hops.push(await startReference(group, `two-hop-${i + 1}`, 'two-hop.ts', env, ctx.signal));
  }
  const urls = hops.map((h) => h.url);
  const result = await withRedis(redis.url, (r) => measureTwoHop(r, urls, jobs, seconds, settle));
  await group.stopAll();
  return result;
}

/**
 * Single POSTs at each `--single-rates`: the bare Express + SET NX + BullMQ add prototype, then
 * the platform's api with Redis alone (no workers, the history off), both without persistence.
 */
export async function runIntakeReferences(ctx: BenchContext): Promise<IntakeResult[]> {
  const { singleRates, seconds } = ctx.options;
  const out: IntakeResult[] = [];
  const warm = (singleRates[0] as number) / 2;
  ctx.log('reference: bare Express + SET NX + BullMQ add, single POST');
  const group = ctx.phase();
  const redis = await startPrivateRedis({ group, env: ctx.inherited, dataDir: join(ctx.dir, 'bare'), persistence: 'none', signal: ctx.signal });
  const bare = await startReference(group, 'bare-intake', 'bare-intake.ts', { REDIS_URL: redis.url }, ctx.signal);
  await withRedis(redis.url, async (r) => {
    await holdIntake('bare', { url: bare.url, apiKey: 'none', redis: r }, warm, 3, 1);
    for (const rate of singleRates) out.push(await holdIntake('bare prototype', { url: bare.url, apiKey: 'none', redis: r }, rate, seconds, rate));
  });
  await group.stopAll();

  ctx.log('platform: api + Redis alone (no workers), single POST');
  const alone = await startBenchPlatform(ctx, { workers: 0, redisPersistence: 'none', appEnv: { HISTORY_ENABLED: 'false' } });
  await withRedis(alone.redisUrl, async (r) => {
    const target = { url: alone.apiUrl, apiKey: BENCH_API_KEY, redis: r };
    await holdIntake('api', target, warm, 3, 1);
    for (const rate of singleRates) out.push(await holdIntake('platform api + Redis', target, rate, seconds, rate));
  });
  await alone.stop();
  return out;
}
