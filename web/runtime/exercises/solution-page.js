// A worked solution of the book's problem, from the chapter's solutions page (the builder
// keeps them there: they were a fifth of a chapter's bytes, for the few readers who open one).
// Each page is fetched once, on the first solution opened, with the stylesheet of its math
// classes, which the chapter's own sheet lacks. Only from the page's own origin and never from
// file://, where the link the solution box holds still opens the page.
const pages = new Map();

function fetchPage(url) {
  let page = pages.get(url);
  if (!page) {
    page = fetch(url)
      .then((response) => {
        if (!response.ok) throw new Error(`the solutions page answered ${response.status}`);
        return response.text();
      })
      .then((text) => new DOMParser().parseFromString(text, 'text/html'));
    pages.set(url, page);
    page.catch(() => pages.delete(url)); // a later opening tries again
  }
  return page;
}

// Resolves once the solutions page's math sheet applies to this document.
function linkSheet(doc, pageUrl) {
  const href = doc.querySelector('link[rel="stylesheet"][href*="css/math/"]')?.getAttribute('href');
  if (!href) return Promise.resolve();
  const url = new URL(href, pageUrl).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === url)) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = url;
  const loaded = new Promise((done) => { link.onload = done; link.onerror = done; });
  document.head.append(link);
  return loaded;
}

export const canFetchSolutions = () => location.protocol !== 'file:';

// src: "03-sharding-solutions.html#ID" -> the HTML of element ID on that page.
export async function fetchSolution(src) {
  const url = new URL(src, document.baseURI);
  if (url.origin !== location.origin) throw new Error('the solutions page is on another site');
  const id = decodeURIComponent(url.hash.slice(1));
  url.hash = '';
  const doc = await fetchPage(url.href);
  const node = doc.getElementById(id);
  if (!node) throw new Error(`the solutions page has no ${id}`);
  await linkSheet(doc, url.href);
  return node.innerHTML;
}
