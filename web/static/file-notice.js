// Opened from disk (file://), Chromium runs no module script and fetches no .wasm, so every
// calculator would still show the build's form and picture and do nothing. This classic script
// (classic scripts do run from disk) says so in each element's own box, with how to serve the
// book, and disables the fields, so nothing looks live. Over http(s) it does nothing.
(function () {
  'use strict';
  if (location.protocol !== 'file:') return;
  var TEXT = 'This calculator needs a web server: browsers do not run it from a file on disk. ' +
    'In the Scalebook folder run scripts/serve and open http://127.0.0.1:8000/ ' +
    '(or serve the dist folder with any static server, e.g. python3 -m http.server).';
  var CSS = '.sb-file-notice { margin: 0 0 0.5rem; padding: 0.4rem 0.7rem; border-radius: 4px; ' +
    'border: 1px solid #b3261e; color: #b3261e; background: #fff4f2; font: 0.88rem/1.45 system-ui, sans-serif; }';
  var sheet = null;
  function adopt(root) {
    if (typeof CSSStyleSheet !== 'function' || !('adoptedStyleSheets' in root)) return;
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
    }
    root.adoptedStyleSheets = root.adoptedStyleSheets.concat([sheet]);
  }
  function notice() {
    var p = document.createElement('p');
    p.className = 'sb-file-notice';
    p.setAttribute('role', 'alert');
    p.textContent = TEXT;
    return p;
  }
  function disable(root) {
    var fields = root.querySelectorAll('input, select, textarea, button');
    for (var i = 0; i < fields.length; i++) fields[i].disabled = true;
  }
  function mark() {
    adopt(document);
    var all = document.body.querySelectorAll('*');
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (el.localName.indexOf('sb-') !== 0) continue;
      var root = el.shadowRoot;
      if (root) {
        adopt(root);
        root.prepend(notice());
        disable(root);
      } else {
        el.prepend(notice());
      }
      disable(el);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mark);
  else mark();
})();
