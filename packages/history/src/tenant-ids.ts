import type pg from 'pg';

/** Tenant names as the small integers rows store, cached (a tenant's id never changes). */
export class TenantIds {
  private readonly cache = new Map<string, number>();

  constructor(private readonly pool: pg.Pool) {}

  /** The ids of `names`; with `create`, unknown tenants are registered; without, they are left out. */
  async resolve(names: readonly string[], create: boolean): Promise<Map<string, number>> {
    const missing = [...new Set(names.filter((n) => !this.cache.has(n)))];
    if (missing.length > 0) {
      if (create) {
        await this.pool.query('INSERT INTO history_tenants (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING', [missing]);
      }
      const { rows } = await this.pool.query<{ id: number; name: string }>('SELECT id, name FROM history_tenants WHERE name = ANY($1::text[])', [missing]);
      for (const r of rows) this.cache.set(r.name, r.id);
    }
    const out = new Map<string, number>();
    for (const n of names) {
      const id = this.cache.get(n);
      if (id !== undefined) out.set(n, id);
    }
    return out;
  }
}
