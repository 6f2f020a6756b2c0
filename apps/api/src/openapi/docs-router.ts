import { dirname } from 'node:path';
import express, { Router } from 'express';
import { buildOpenApiDocument } from './document';

/** Swagger UI's files come from the installed package: /docs works without internet. */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>notify api</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/notify-init.js"></script>
</body>
</html>
`;

// A file, not an inline script, so a strict Content-Security-Policy can still allow it.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/** `GET /openapi.json` (the document) and `GET /docs` (Swagger UI over it); no auth, no CDN. */
export function docsRouter(): Router {
  const router = Router();
  const document = JSON.stringify(buildOpenApiDocument());
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/notify-init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use('/docs', express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true }));
  return router;
}
