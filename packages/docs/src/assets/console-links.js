/*
 * Links inside the Redoc reference.
 *
 * Redoc handles every link click inside the reference as a move within the reference, so a link to
 * the request console would only scroll. Links to a console page are followed here instead, before
 * Redoc sees the click.
 *
 * Redoc writes some of its own links from its router's root (the sidebar's group "/v4", the title's
 * "/"): a click stays in the page, but opened in a new tab or copied they leave it (a 404). They are
 * given the form Redoc opens them in, the page's hash ("#/v4"), as Redoc renders them.
 */
document.addEventListener(
  'click',
  (event) => {
    var link = event.target instanceof Element ? event.target.closest('a[href*="-console.html"]') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    location.href = link.href;
  },
  true,
);

(() => {
  function hashLinks(root) {
    root.querySelectorAll('a[href^="/"]:not([href^="//"])').forEach((link) => {
      link.setAttribute('href', `#${link.getAttribute('href')}`);
    });
  }
  function start() {
    var redoc = document.getElementById('redoc');
    if (!redoc) return;
    hashLinks(redoc);
    new MutationObserver(() => hashLinks(redoc)).observe(redoc, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['href'],
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
