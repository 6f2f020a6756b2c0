import { categoryField, consentTenantKey, DEFAULT_CATEGORY, OPT_OUTS_MARK, type Category } from '@notify/core';
import type { RedisClient } from '@notify/runtime';

/** What a process knows of one tenant's consent settings. */
export interface TenantConsent {
  categories: ReadonlyMap<string, Category>;
  /** Some recipient of the tenant has opt-outs recorded: only then does a step read them. */
  optOuts: boolean;
}

/** The category every tenant has until it defines its own `default`. */
export const IMPLICIT_DEFAULT: Category = { name: 'Default', required: false };

/** At most this many tenants are cached per process; past it the cache starts over. */
const MAX_CACHED_TENANTS = 10_000;

/**
 * A tenant's categories and opt-out mark (one Redis hash per tenant), read through a per-process
 * cache whose entries live `cacheMs` (CONSENT_CACHE_MS): a change made through another process is
 * seen within that bound, one made through this one at once.
 */
export class ConsentSettings {
  readonly #cache = new Map<string, { value: TenantConsent; at: number }>();

  constructor(
    private readonly redis: RedisClient,
    private readonly options: { cacheMs: number; now?: () => number },
  ) {}

  async tenant(tenant: string): Promise<TenantConsent> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.#cache.get(tenant);
    if (cached && now - cached.at < this.options.cacheMs) return cached.value;
    const fields = await this.redis.hgetall(consentTenantKey(tenant));
    const categories = new Map<string, Category>();
    for (const [field, value] of Object.entries(fields)) if (field.startsWith('c:')) categories.set(field.slice(2), JSON.parse(value) as Category);
    const entry = { value: { categories, optOuts: fields[OPT_OUTS_MARK] === '1' }, at: now };
    if (this.#cache.size >= MAX_CACHED_TENANTS) this.#cache.clear();
    this.#cache.set(tenant, entry);
    return entry.value;
  }

  /** The category a notification names (none: the default), or undefined when the tenant has no such category. */
  async category(tenant: string, id: string | undefined): Promise<{ id: string; category: Category } | undefined> {
    const name = id ?? DEFAULT_CATEGORY;
    const found = (await this.tenant(tenant)).categories.get(name);
    if (found) return { id: name, category: found };
    return name === DEFAULT_CATEGORY ? { id: name, category: IMPLICIT_DEFAULT } : undefined;
  }

  /** Stores a category; true when it is new. */
  async putCategory(tenant: string, id: string, category: Category): Promise<boolean> {
    const created = await this.redis.hset(consentTenantKey(tenant), categoryField(id), JSON.stringify(category));
    this.#cache.delete(tenant);
    return created === 1;
  }

  async deleteCategory(tenant: string, id: string): Promise<boolean> {
    const deleted = await this.redis.hdel(consentTenantKey(tenant), categoryField(id));
    this.#cache.delete(tenant);
    return deleted === 1;
  }

  /** The tenant's categories as stored now (not the cache: an api answer shows the truth). */
  async listCategories(tenant: string): Promise<{ id: string; category: Category }[]> {
    this.#cache.delete(tenant);
    const { categories } = await this.tenant(tenant);
    return [...categories.entries()].map(([id, category]) => ({ id, category })).sort((a, b) => a.id.localeCompare(b.id));
  }

  /** Marks the tenant as having opt-outs (steps start reading them within CONSENT_CACHE_MS). */
  async markOptOuts(tenant: string): Promise<void> {
    const cached = this.#cache.get(tenant);
    if (cached?.value.optOuts) return;
    await this.redis.hset(consentTenantKey(tenant), OPT_OUTS_MARK, '1');
    this.#cache.delete(tenant);
  }
}
