// A "Copy" button on every code block of a guide: it copies the code as the page prints it (the
// text of the block, without the highlighting), to paste into a terminal or an editor.
(() => {
  function copied(button, text) {
    button.textContent = text;
    setTimeout(() => {
      button.textContent = 'Copy';
    }, 1500);
  }

  /** The clipboard API where the page may use it (https, localhost), else the older selection copy (a page opened from disk). */
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand('copy');
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  document.querySelectorAll('.content .code-block').forEach((block) => {
    var code = block.querySelector('pre code') || block.querySelector('pre');
    if (!code) return;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-button';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy the code');
    button.addEventListener('click', () => {
      copy(code.textContent.replace(/\n$/, '')).then(
        () => copied(button, 'Copied'),
        () => copied(button, 'Select and copy'),
      );
    });
    block.appendChild(button);
  });
})();
