/*
 * The language switch of the code samples on the guide pages: each `.sample-group` (one sample in
 * several languages, each a `.sample-label` followed by its code block) becomes a row of tabs. The
 * language chosen last is kept in localStorage and shown in every group, on this page and the next.
 * (The API reference has Redoc's own language menu.)
 */
(function () {
  var storageKey = 'swap-gateway-docs:sample-language';
  var labels = { curl: 'curl', typescript: 'TypeScript', python: 'Python' };

  function stored() {
    try {
      return localStorage.getItem(storageKey) || 'curl';
    } catch (error) {
      return 'curl';
    }
  }

  function remember(language) {
    try {
      localStorage.setItem(storageKey, language);
    } catch (error) {
      // A page opened from disk may have no storage: the choice then lasts for this page only.
    }
  }

  function showInGroups(language) {
    document.querySelectorAll('.sample-group').forEach(function (group) {
      var available = Array.prototype.map.call(group.querySelectorAll('.sample-label'), function (label) { return label.dataset.language; });
      var shown = available.indexOf(language) >= 0 ? language : available[0];
      group.querySelectorAll('.sample-label').forEach(function (label) {
        var selected = label.dataset.language === shown;
        label.hidden = !selected;
        var block = label.nextElementSibling;
        if (block) block.hidden = !selected;
      });
      group.querySelectorAll('.sample-tab').forEach(function (tab) {
        tab.setAttribute('aria-selected', String(tab.dataset.language === shown));
      });
    });
  }

  function choose(language) {
    remember(language);
    showInGroups(language);
  }

  function buildTabs() {
    document.querySelectorAll('.sample-group').forEach(function (group) {
      var bar = document.createElement('div');
      bar.className = 'sample-tabs';
      bar.setAttribute('role', 'tablist');
      group.querySelectorAll('.sample-label').forEach(function (label) {
        var tab = document.createElement('button');
        tab.type = 'button';
        tab.className = 'sample-tab';
        tab.setAttribute('role', 'tab');
        tab.dataset.language = label.dataset.language;
        tab.textContent = labels[label.dataset.language] || label.dataset.language;
        tab.addEventListener('click', function () { choose(tab.dataset.language); });
        bar.appendChild(tab);
      });
      group.insertBefore(bar, group.firstChild);
    });
  }

  function start() {
    buildTabs();
    showInGroups(stored());
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
