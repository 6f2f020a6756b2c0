import type { Express } from 'express';

/** A route the app serves: a method and path (`:id` params), or a mounted sub-application. */
export interface ExpressRoute {
  method: string;
  path: string;
  /** A sub-application (bull-board): the app cannot see its routes, only where it is mounted. */
  mounted?: true;
}

// The parts of Express 5's router (router@2) this walk reads; no public API lists routes.
interface Layer {
  name: string;
  rawPath?: string | string[];
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[]; router?: unknown; set?: unknown };
}

function join(prefix: string, path: string): string {
  const joined = `${prefix}/${path}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}

function walk(stack: readonly Layer[], prefix: string, out: ExpressRoute[]): void {
  for (const layer of stack) {
    const raw = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath ?? '/'];
    for (const path of raw) {
      if (typeof path !== 'string') throw new Error(`express-routes: cannot list a ${typeof path} path (use string paths)`);
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods)) out.push({ method, path: join(prefix, layer.route.path) });
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, join(prefix, path), out);
      } else if (layer.name === 'mounted_app' || (layer.handle.router !== undefined && typeof layer.handle.set === 'function')) {
        // An Express application: mounted by app.use (wrapped as mounted_app) or by router.use (as is).
        out.push({ method: 'get', path: join(prefix, path), mounted: true });
      }
      // Anything else is middleware (auth, body parsing, static files, 404, errors): no route.
    }
  }
}

/** Every route of an Express 5 app, depth first, in registration order. */
export function listExpressRoutes(app: Express): ExpressRoute[] {
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  const out: ExpressRoute[] = [];
  walk(router.stack, '', out);
  return out;
}
