/*
 * The language of the code samples, one choice for the whole site. The language chosen last is kept
 * in localStorage and shown everywhere, on this page and the next:
 * - on the guide pages each `.sample-group` (one sample in several languages, each a `.sample-label`
 *   followed by its code block) becomes a row of tabs;
 * - on the API reference Redoc shows each operation's samples (x-codeSamples) under its own language
 *   menu: the saved language is selected there, in every sample panel Redoc renders (it renders them
 *   as the reader moves through the reference, so new panels are watched for), and a language the
 *   reader picks in that menu is saved.
 */
(() => {
  var storageKey = 'swap-gateway-docs:sample-language';
  // Each language's label, `{ "typescript": "TypeScript", ... }`, written on the script tag by the build (src/site.ts).
  var labels = JSON.parse(document.currentScript.dataset.labels);

  function stored() {
    try {
      return localStorage.getItem(storageKey) || 'curl';
    } catch {
      return 'curl';
    }
  }

  function remember(language) {
    try {
      localStorage.setItem(storageKey, language);
    } catch {
      // A page opened from disk may have no storage: the choice then lasts for this page only.
    }
  }

  /** The language a label names (`Python` → `python`), or undefined when it names none. */
  function languageLabelled(text) {
    var label = text.trim();
    return Object.keys(labels).find((language) => labels[language] === label);
  }

  // The guide pages.

  function showInGroups(language) {
    document.querySelectorAll('.sample-group').forEach((group) => {
      var available = Array.prototype.map.call(group.querySelectorAll('.sample-label'), (label) => label.dataset.language);
      var shown = available.indexOf(language) >= 0 ? language : available[0];
      group.querySelectorAll('.sample-label').forEach((label) => {
        var selected = label.dataset.language === shown;
        label.hidden = !selected;
        var block = label.nextElementSibling;
        if (block) block.hidden = !selected;
      });
      group.querySelectorAll('.sample-tab').forEach((tab) => {
        tab.setAttribute('aria-selected', String(tab.dataset.language === shown));
      });
    });
  }

  function buildTabs() {
    document.querySelectorAll('.sample-group').forEach((group) => {
      var bar = document.createElement('div');
      bar.className = 'sample-tabs';
      bar.setAttribute('role', 'tablist');
      group.querySelectorAll('.sample-label').forEach((label) => {
        var tab = document.createElement('button');
        tab.type = 'button';
        tab.className = 'sample-tab';
        tab.setAttribute('role', 'tab');
        tab.dataset.language = label.dataset.language;
        tab.textContent = labels[label.dataset.language] || label.dataset.language;
        tab.addEventListener('click', () => {
          remember(tab.dataset.language);
          // Every group of the page switches, and the groups above this one change height with it:
          // the tab clicked stays where it is in the window (the page would otherwise move to
          // another operation's samples).
          var before = tab.getBoundingClientRect().top;
          showInGroups(tab.dataset.language);
          var moved = tab.getBoundingClientRect().top - before;
          if (moved !== 0) window.scrollBy(0, moved);
        });
        bar.appendChild(tab);
      });
      group.insertBefore(bar, group.firstChild);
    });
  }

  // The API reference (Redoc).

  /** Redoc's language menu buttons: the menu button of a sample panel whose text is a language (the other one names the operation's path). */
  function redocLanguageButtons() {
    return Array.prototype.filter.call(
      document.querySelectorAll('.panel-request-samples button[aria-haspopup="menu"]'),
      (button) => languageLabelled(button.textContent) !== undefined,
    );
  }

  // A panel whose menu did not offer the language is not tried again, so a menu that does not open cannot start a loop.
  var triedButtons = new WeakSet();
  var selecting = false;

  /** Opens the panel's language menu and, once Redoc has rendered it, picks the language in it (Redoc then shows it in every panel). */
  function selectInRedoc(button, language) {
    triedButtons.add(button);
    selecting = true;
    button.click();
    requestAnimationFrame(() => {
      var item = Array.prototype.find.call(
        document.querySelectorAll('[role="menu"] [role="menuitem"]'),
        (candidate) => candidate.getClientRects().length > 0 && languageLabelled(candidate.textContent) === language,
      );
      if (item) item.click();
      else button.click();
      selecting = false;
      requestAnimationFrame(showInRedoc);
    });
  }

  /**
   * Whether React has taken over the button: Redoc's page arrives rendered and React hydrates it a
   * moment later, without changing the page, and a click before that does nothing.
   */
  function hydrated(button) {
    return Object.keys(button).some((key) => key.indexOf('__reactProps') === 0);
  }

  // Waits for hydration in steps of 100 ms, for 20 s at most (then clicks anyway, should React stop marking its elements).
  var hydrationChecks = 200;

  function showInRedoc() {
    if (selecting) return;
    var language = stored();
    var button = redocLanguageButtons().find(
      (candidate) => languageLabelled(candidate.textContent) !== language && !triedButtons.has(candidate),
    );
    if (!button) return;
    if (!hydrated(button) && hydrationChecks-- > 0) setTimeout(showInRedoc, 100);
    else selectInRedoc(button, language);
  }

  function followRedoc(root) {
    document.addEventListener(
      'click',
      (event) => {
        var item = event.target instanceof Element ? event.target.closest('[role="menuitem"]') : null;
        var language = item && languageLabelled(item.textContent);
        if (language) remember(language);
      },
      true,
    );
    var pending = false;
    new MutationObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        showInRedoc();
      });
    }).observe(root, { childList: true, subtree: true });
    showInRedoc();
  }

  function start() {
    buildTabs();
    showInGroups(stored());
    var redoc = document.getElementById('redoc');
    if (redoc) followRedoc(redoc);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
