// A demo of what a blogger pastes: one script tag and a calculator element, no build step.
export function embedPage() {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Embedding a Scalebook calculator</title>
<link rel="icon" href="assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="assets/site.css">
</head>
<body>
<main class="chapter">
<h1>Embedding a calculator</h1>
<p>Paste these lines into any HTML page: the script, a calculator, and (if you want it) a
roofline plot whose point follows the calculator named by its <code>for</code>. The elements
load the engine themselves and need nothing else from this site.</p>
<pre><code>&lt;script type="module" src="https://YOUR-HOST/assets/scalebook.js"&gt;&lt;/script&gt;
&lt;sb-matmul id="embedded" chip="h100" b="512"&gt;&lt;/sb-matmul&gt;
&lt;sb-roofline-plot for="embedded"&gt;&lt;/sb-roofline-plot&gt;</code></pre>
<p>What the host needs: the script and <code>scalebook-engine.wasm</code> are fetched across
origins, so serve them with <code>Access-Control-Allow-Origin</code> (<code>scripts/serve</code>
does). A page with a Content-Security-Policy must allow <code>script-src https://YOUR-HOST
'wasm-unsafe-eval'</code> and <code>connect-src https://YOUR-HOST</code>; nothing inline is
needed, since the elements style themselves with constructed stylesheets. An element whose engine
cannot load says so in its own box.</p>
<p>Here it is, live:</p>
<sb-matmul id="embedded" chip="h100" b="512"></sb-matmul>
<sb-roofline-plot for="embedded"></sb-roofline-plot>
</main>
<script type="module" src="assets/scalebook.js"></script>
<script src="assets/file-notice.js" defer></script>
</body>
</html>
`;
}
