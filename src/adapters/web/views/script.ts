import { createHash } from 'node:crypto';

/**
 * The pages' one script (contract §21b: progressive enhancement only; every page reads and every form works without
 * it). Loaded by a signed-in reader's pages only: a page read signed out asks for no script. It keeps the header's
 * unread count live through the API's notification stream (§12), which the browser's session opens; and it uploads an
 * image chosen in a post's form at once (the pages' POST /photos), putting its Markdown where the cursor is, the
 * field emptied so that the form does not send it again (should the upload fail, the form still carries it). Its
 * words come from the page (data-* attributes, in the page's language). Plain ES5-level JavaScript, no framework;
 * served from memory under a URL that names its digest (cached for good).
 */
export const SCRIPT = `'use strict';
(function () {
  var fields = document.querySelectorAll('input[type=file][data-upload-into]');
  Array.prototype.forEach.call(fields, function (field) {
    var text = document.getElementById(field.getAttribute('data-upload-into'));
    var hint = document.getElementById(field.getAttribute('aria-describedby'));
    var token = field.form && field.form.querySelector('input[name=csrf_token]');
    if (!text || !hint || !token || typeof fetch === 'undefined' || typeof FormData === 'undefined') return;
    // The text keeps its cursor when the file field is chosen; a text never gone into has its cursor at the start,
    // and takes the image at its end instead.
    var entered = false;
    text.addEventListener('focus', function () { entered = true; });
    field.addEventListener('change', function () {
      var file = field.files && field.files[0];
      if (!file) return;
      var data = new FormData();
      data.append('csrf_token', token.value);
      data.append('image', file);
      hint.textContent = field.getAttribute('data-uploading');
      var lang = encodeURIComponent(document.documentElement.lang || 'en');
      fetch('/photos?lang=' + lang, { method: 'POST', body: data, credentials: 'same-origin' })
        .then(function (response) {
          return response.json().then(
            function (answer) { return { ok: response.ok, answer: answer }; },
            function () { return { ok: false, answer: {} }; }
          );
        })
        .then(function (result) {
          if (!result.ok) throw { said: result.answer.error };
          var at = entered && typeof text.selectionStart === 'number' ? text.selectionStart : text.value.length;
          var before = text.value.slice(0, at);
          var insert = (before && !/\\n$/.test(before) ? '\\n' : '') + result.answer.markdown + '\\n';
          text.value = before + insert + text.value.slice(at);
          text.selectionStart = text.selectionEnd = at + insert.length;
          field.value = '';
          hint.textContent = field.getAttribute('data-added');
          text.focus();
        })
        .catch(function (error) {
          // The server's reason, in the page's language; a network's failure says nothing more.
          hint.textContent = field.getAttribute('data-failed') + (error && error.said ? ' ' + error.said : '');
        });
    });
  });
})();
(function () {
  var link = document.querySelector('a[data-unread-label]');
  if (!link || typeof EventSource === 'undefined') return;
  var badge = link.querySelector('.count');
  var source = new EventSource('/api/v3/notifications/stream');
  source.addEventListener('unread_count', function (event) {
    var count = JSON.parse(event.data).count;
    if (count > 0) {
      if (!badge) {
        badge = document.createElement('span');
        badge.className = 'count';
        // As the page has it: a space, then the count (the visible text stays within the link's name).
        if (!/\\s$/.test(link.textContent)) link.appendChild(document.createTextNode(' '));
        link.appendChild(badge);
      }
      badge.textContent = String(count);
      link.setAttribute('aria-label', link.getAttribute('data-unread-label').replace('{n}', String(count)));
    } else {
      if (badge) badge.remove();
      badge = null;
      link.setAttribute('aria-label', link.getAttribute('data-read-label'));
    }
  });
})();
`;

/** Where the script is served: its digest in its name, so that a new script is a new URL. */
export const SCRIPT_PATH = `/assets/forum-${createHash('sha256').update(SCRIPT).digest('hex').slice(0, 16)}.js`;
