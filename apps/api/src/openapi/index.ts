/** The api's OpenAPI 3.1 document (built from the zod schemas) and the router serving it. */
export { buildOpenApiDocument } from './document';
export { docsRouter } from './docs-router';
export { OPERATIONS, type Operation } from './operations';
export { EXAMPLES, NAMED_SCHEMAS, type SchemaName } from './components';
export { listExpressRoutes, type ExpressRoute } from './express-routes';
