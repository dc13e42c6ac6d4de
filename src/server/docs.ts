/**
 * GET /docs: the interactive API reference, Swagger UI over the generated openapi.json. Every
 * asset is served by this server (no CDN), so the page works offline and under a strict Content
 * Security Policy: scripts and styles only from this origin, no inline script.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import { refuseOtherMethods } from './methods.ts';

const pageDir = fileURLToPath(new URL('./docs-page/', import.meta.url));
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** Swagger UI sets style attributes on its elements, and draws its icons as data: images. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

export function docsRouter(): Router {
  const router = express.Router({ caseSensitive: true });
  // Only the docs page's own answers; everything else keeps helmet's stricter policy.
  router.use('/docs', (_request, response, next) => {
    response.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    next();
  });
  router.get(['/docs', '/docs/'], (_request, response) => {
    response.sendFile(path.join(pageDir, 'index.html'));
  });
  router.get(['/docs/page.js', '/docs/page.css'], (request, response) => {
    response.sendFile(path.join(pageDir, path.basename(request.path)));
  });
  router.get('/docs/assets/:name', (request, response, next) => {
    const name = String(request.params.name);
    if (!SWAGGER_ASSETS.has(name)) return next();
    response.set('Cache-Control', 'public, max-age=86400');
    response.sendFile(path.join(swaggerUiDir, name));
  });
  refuseOtherMethods(router, ['/docs', '/docs/', '/docs/page.js', '/docs/page.css'], ['GET']);
  refuseOtherMethods(router, '/docs/assets/:name', ['GET'], (request) => SWAGGER_ASSETS.has(String(request.params.name)));
  return router;
}
