/*
 * The language switch of the code samples. On guide pages, each `.sample-group` (one sample in
 * several languages, each a `.sample-label` followed by its code block) becomes a row of tabs; in the
 * API reference, Redoc's own sample tabs are used. The language chosen last is kept in localStorage
 * and shown everywhere, on this page and the next.
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

  /** Redoc's tabs: click the tab of the language in every sample panel that has one. */
  function showInRedoc(language) {
    document.querySelectorAll('.react-tabs__tab-list').forEach(function (list) {
      Array.prototype.forEach.call(list.querySelectorAll('.react-tabs__tab'), function (tab) {
        if (tab.textContent.trim() === labels[language] && tab.getAttribute('aria-selected') !== 'true') tab.click();
      });
    });
  }

  function choose(language) {
    remember(language);
    showInGroups(language);
    showInRedoc(language);
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
    // Redoc renders after this script: follow its tabs once they are there, and the reader's clicks on them.
    var redocTries = 0;
    var waitForRedoc = setInterval(function () {
      if (document.querySelector('.react-tabs__tab-list') || ++redocTries > 50) {
        clearInterval(waitForRedoc);
        showInRedoc(stored());
      }
    }, 200);
    document.addEventListener('click', function (event) {
      var tab = event.target instanceof Element ? event.target.closest('.react-tabs__tab') : null;
      if (!tab || !event.isTrusted) return;
      Object.keys(labels).forEach(function (language) {
        if (labels[language] === tab.textContent.trim()) choose(language);
      });
    });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
