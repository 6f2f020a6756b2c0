import type { Redis } from 'ioredis';

/** The platform under measurement, as the rate holder and the first-try sampler see it. */
export interface BenchTarget {
  apiUrl: string;
  /** Every api instance, when there are several: the load goes round-robin over them (default: `apiUrl` alone). */
  apiUrls?: string[];
  apiKey: string;
  tenant: string;
  /** Every process that counts accepted (api) and terminal (workers) notifications. */
  metricsUrls: string[];
  redis: Redis;
}
