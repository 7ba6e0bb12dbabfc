// Client-side search over the prebuilt index (assets/search-index.js): every
// word typed must appear in an entry's title or text; title hits count most,
// then the entry's boost (operations and error codes before the guides, the
// pages for API review and releases last), then the order of the index.
(() => {
  var siteRoot = new URL('..', document.currentScript.src);
  var input = document.getElementById('site-search');
  var list = document.getElementById('search-results');
  if (!input || !list || !window.SEARCH_INDEX) return;
  var entries = window.SEARCH_INDEX.map((entry) => ({ entry: entry, title: entry.title.toLowerCase(), text: entry.text.toLowerCase() }));

  function search(query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    return entries
      .map((item) => {
        var score = 0;
        for (let i = 0; i < words.length; i++) {
          if (item.title.indexOf(words[i]) !== -1) score += 3;
          else if (item.text.indexOf(words[i]) !== -1) score += 1;
          else return null;
        }
        return { entry: item.entry, score: score + (item.entry.boost || 0) };
      })
      .filter(Boolean)
      .sort((a, b) => b.score - a.score)
      .slice(0, 8);
  }

  function render(results, query) {
    list.textContent = '';
    if (!query.trim()) {
      list.hidden = true;
      return;
    }
    if (results.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'search-empty';
      empty.textContent = `Nothing matches “${query.trim()}”`;
      list.appendChild(empty);
    }
    results.forEach((result) => {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = new URL(result.entry.href, siteRoot).href;
      var title = document.createElement('strong');
      title.textContent = result.entry.title;
      var kind = document.createElement('span');
      kind.className = 'search-kind';
      kind.textContent = result.entry.kind;
      link.appendChild(title);
      link.appendChild(kind);
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = false;
  }

  input.addEventListener('input', () => {
    render(search(input.value), input.value);
  });
  input.addEventListener('keydown', (event) => {
    var first = list.querySelector('a');
    if (event.key === 'Enter' && first) {
      window.location.href = first.href;
    }
    if (event.key === 'ArrowDown' && first) {
      event.preventDefault();
      first.focus();
    }
    if (event.key === 'Escape') {
      list.hidden = true;
      input.blur();
    }
  });
  list.addEventListener('keydown', (event) => {
    var links = Array.prototype.slice.call(list.querySelectorAll('a'));
    var at = links.indexOf(document.activeElement);
    if (event.key === 'ArrowDown' && at < links.length - 1) {
      event.preventDefault();
      links[at + 1].focus();
    }
    if (event.key === 'ArrowUp') {
      event.preventDefault();
      (at > 0 ? links[at - 1] : input).focus();
    }
    if (event.key === 'Escape') {
      list.hidden = true;
      input.focus();
    }
  });
  // A link inside the same page (a Redoc hash route) does not reload it: close the list.
  list.addEventListener('click', () => {
    list.hidden = true;
  });
  document.addEventListener('click', (event) => {
    if (!event.target.closest?.('.search')) list.hidden = true;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && document.activeElement !== input && !/INPUT|TEXTAREA/.test(document.activeElement.tagName)) {
      event.preventDefault();
      input.focus();
    }
  });
})();
