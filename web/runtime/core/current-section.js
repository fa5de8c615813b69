// Marks, in a chapter's contents (nav.contents), the section the reader is in: the last h2
// whose top has passed a quarter of the window, as aria-current="location" (which screen
// readers say) and a style in site.css. Pages without such a nav are left alone.

function sectionsOf(nav) {
  return [...nav.querySelectorAll('a[href^="#"]')]
    .map((link) => ({ link, heading: document.getElementById(decodeURIComponent(link.hash.slice(1))) }))
    .filter((s) => s.heading);
}

function mark(sections) {
  const line = window.innerHeight / 4;
  let current = null;
  for (const s of sections) if (s.heading.getBoundingClientRect().top <= line) current = s;
  for (const s of sections) {
    if (s === current) s.link.setAttribute('aria-current', 'location');
    else s.link.removeAttribute('aria-current');
  }
}

export function watchCurrentSection() {
  const run = () => {
    const nav = document.querySelector('nav.contents');
    if (!nav) return;
    const sections = sectionsOf(nav);
    let queued = false;
    const update = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; mark(sections); });
    };
    mark(sections);
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}
