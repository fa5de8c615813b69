// Serves dist/ on http://127.0.0.1:PORT (default 8000). Usage: node web/builder/serve.mjs [--port N]
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The codings of an Accept-Encoding header the client takes (q > 0), best first. sirv only
// looks for the words "br" and "gzip" in the header, so "br;q=0" would still get brotli: the
// header is rewritten to the codings really accepted before sirv reads it.
export function acceptedEncodings(header = '') {
  return String(header).split(',')
    .map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { name: name.trim(), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ name, q }) => name && q > 0)
    .sort((a, b) => b.q - a.q)
    .map(({ name }) => name);
}

// The policy every page is served with: nothing inline (styles come from linked or constructed
// sheets, scripts from files), WebAssembly compiled from our own .wasm, no plugins, no <base>.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; object-src 'none'; base-uri 'none'";

export function serve({ dir = path.join(ROOT, 'dist'), port = 8000, host = '127.0.0.1' } = {}) {
  // The runtime and its engine are fetched by other sites' pages (one script tag in a blog
  // post): module scripts and the .wasm are CORS requests, so the assets allow any origin.
  // The build wrote FILE.br and FILE.gz beside each text and .wasm file (compress.mjs): sirv
  // sends the one the client accepts with Content-Encoding and Vary: Accept-Encoding.
  const handler = sirv(dir, {
    dev: true,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders: (res, pathname) => {
      res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      if (pathname.startsWith('/assets/')) res.setHeader('Access-Control-Allow-Origin', '*');
    },
  });
  const server = http.createServer((req, res) => {
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    const wildcard = accepted.includes('*');
    req.headers['accept-encoding'] = ['br', 'gzip'].filter((e) => wildcard || accepted.includes(e)).join(', ');
    handler(req, res, () => {
      res.statusCode = 404;
      res.end('not found');
    });
  });
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
