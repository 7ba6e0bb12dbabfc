/*
 * Redoc handles every link click inside the reference as a move within the reference, so a link to
 * the request console would only scroll. Links to a console page are followed here instead, before
 * Redoc sees the click.
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
