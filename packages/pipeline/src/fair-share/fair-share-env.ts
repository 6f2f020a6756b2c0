import { booleanEnv } from '@notify/runtime';

/** LANE_FAIR_SHARE, read by the api (first steps) and the worker (later steps, the virtual time); set both alike. */
export const fairShareEnvShape = {
  LANE_FAIR_SHARE: booleanEnv(true).describe(
    "Fair share between tenants inside each lane: a lane's workers serve the tenants with backlog there in turn, weighted by each tenant's `weight` in `TENANTS_FILE`, instead of first in, first out; one small Lua call per job added ([tenants](tenants.md#fair-share)). `false` = one FIFO per lane. Set the api and the worker alike.",
  ),
};
