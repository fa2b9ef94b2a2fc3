import { createHash } from 'node:crypto';

/**
 * The pages' one script (contract §21b: progressive enhancement only; every page reads and every form works without
 * it). Loaded by a signed-in reader's pages only: a page read signed out asks for no script. It keeps the header's
 * unread count live through the API's notification stream (§12), which the browser's session opens. Plain ES5-level
 * JavaScript, no framework; served from memory under a URL that names its digest (cached for good).
 */
export const SCRIPT = `'use strict';
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
