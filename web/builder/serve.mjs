// Serves dist/ on http://127.0.0.1:PORT (default 8000). Usage: node web/builder/serve.mjs [--port N]
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function serve({ dir = path.join(ROOT, 'dist'), port = 8000, host = '127.0.0.1' } = {}) {
  // The runtime and its engine are fetched by other sites' pages (one script tag in a blog
  // post): module scripts and the .wasm are CORS requests, so the assets allow any origin.
  const handler = sirv(dir, {
    dev: true,
    etag: true,
    setHeaders: (res, pathname) => {
      if (pathname.startsWith('/assets/')) res.setHeader('Access-Control-Allow-Origin', '*');
    },
  });
  const server = http.createServer((req, res) => handler(req, res, () => {
    res.statusCode = 404;
    res.end('not found');
  }));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flag = process.argv.indexOf('--port');
  const port = Number(flag > 0 ? process.argv[flag + 1] : process.env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: port must be an integer from 0 to 65535, got ${flag > 0 ? process.argv[flag + 1] : process.env.PORT}`);
    process.exit(2);
  }
  try {
    const server = await serve({ port });
    console.log(`Scalebook is served at http://127.0.0.1:${server.address().port}/ (Ctrl-C stops it)`);
  } catch (error) {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${error.code ?? error.message}`);
    process.exit(1);
  }
}
