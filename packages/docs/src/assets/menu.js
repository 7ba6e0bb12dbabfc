// The header's menu (a <details> that opens and closes by itself): closed again on Escape, on a click
// outside it, and after a link that stays on the page (a Redoc operation, an anchor of a guide).
(() => {
  var menu = document.querySelector('.site-header .site-menu');
  if (!menu) return;
  var summary = menu.querySelector('summary');
  function close(focusSummary) {
    if (!menu.open) return;
    menu.open = false;
    if (focusSummary) summary.focus();
  }
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close(menu.contains(document.activeElement));
  });
  document.addEventListener('click', (event) => {
    if (!menu.contains(event.target)) close(false);
  });
  menu.querySelector('.menu-panel').addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) close(false);
  });
})();
