/**
 * The api's start-up warm-up of the tracking path, one round (32 queries at once) instead of
 * production's 400: the path still runs before /readyz says ready, without ~4 s of reads on
 * every api a test starts. A test about the warm-up or tracking latency sets its own.
 */
export const LIGHT_WARMUP_ENV = { TRACKING_WARMUP_QUERIES: '32' };
