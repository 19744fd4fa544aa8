import path from 'node:path';
import express, { Router } from 'express';
import { API_DOCUMENT_PATH } from './openapi-routes';

export const DOCS_PATH = '/docs';

// Swagger UI's own files, served from the installed package: the reference works offline and loads nothing
// from another origin. React sets style attributes, hence the inline styles; scripts stay 'self' only.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>VERI*FACTU API reference</title>
<link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/start.js"></script>
</body>
</html>
`;

const START = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(API_DOCUMENT_PATH)}, dom_id: '#reference', deepLinking: true, validatorUrl: null });\n`;

/** The interactive API reference at /docs, on the document of GET /api/v1/openapi.json. */
export function docsRoutes(): Router {
  const router = Router();
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.use(DOCS_PATH, (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  router.get(DOCS_PATH, (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get(`${DOCS_PATH}/start.js`, (_req, res) => {
    res.type('application/javascript').send(START);
  });
  router.use(`${DOCS_PATH}/assets`, express.static(assets, { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}
