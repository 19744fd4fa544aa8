import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Router } from 'express';

interface Asset {
  body: Buffer;
  contentType: string;
  version: string;
}

// Beside src/ and dist/ at the package's top level, so the compiled router finds them at the same relative path.
const ASSET_DIR = path.join(__dirname, '..', '..', 'assets');

const FILES: Record<string, string> = {
  'dashboard.css': 'text/css; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
};

function load(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const [name, contentType] of Object.entries(FILES)) {
    const body = readFileSync(path.join(ASSET_DIR, name));
    assets.set(name, { body, contentType, version: createHash('sha256').update(body).digest('hex').slice(0, 12) });
  }
  return assets;
}

export interface AssetUrls {
  css: string;
  js: string;
}

/**
 * Serves the dashboard's own CSS and JS (nothing is fetched from anywhere else). Pages link them with a content
 * hash in the query, so a versioned URL can be cached for a year and a new deploy is picked up at once.
 */
export function createAssetRouter(): { router: Router; urls: AssetUrls } {
  const assets = load();
  const router = Router();
  router.get('/assets/:name', (req, res) => {
    const asset = assets.get(req.params.name);
    if (!asset) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    const etag = `"${asset.version}"`;
    res.setHeader('ETag', etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', req.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type(asset.contentType).send(asset.body);
  });
  const url = (name: string) => `/assets/${name}?v=${assets.get(name)!.version}`;
  return { router, urls: { css: url('dashboard.css'), js: url('dashboard.js') } };
}
