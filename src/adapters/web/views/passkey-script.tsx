import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The scripts of the passkey forms (contract §25): @simplewebauthn/browser's bundle (which talks to the browser's
 * WebAuthn), and ours, which runs its ceremony for a form marked `data-passkey`. Only the two-factor settings and the
 * sign-in step load them; everything else those pages do works without scripts, and a passkey form stays hidden
 * where scripts (or WebAuthn) are missing. Both are served from this origin, from memory, under URLs naming their
 * digests (cached for good), as the forum pages' script is.
 *
 * A passkey form names the URL of its options (`data-passkey-options`: POSTed with the form's CSRF token, answered
 * with the options as JSON) and its kind (`data-passkey`: `register` or `sign-in`); on submit the script fetches the
 * options, runs the ceremony, puts the authenticator's answer (JSON) into the form's `credential` field and sends the
 * form. A ceremony that fails or is cancelled says so in the form's `[role=status]`, in the page's words
 * (`data-failed`), and sends nothing.
 */
export const PASSKEY_SCRIPT = `'use strict';
(function () {
  var webauthn = window.SimpleWebAuthnBrowser;
  if (!webauthn || !webauthn.browserSupportsWebAuthn() || typeof fetch === 'undefined') return;
  Array.prototype.forEach.call(document.querySelectorAll('[data-passkey-off]'), function (note) { note.hidden = true; });
  Array.prototype.forEach.call(document.querySelectorAll('form[data-passkey]'), function (form) {
    var answer = form.querySelector('input[name=credential]');
    var token = form.querySelector('input[name=csrf_token]');
    var status = form.querySelector('[role=status]');
    if (!answer || !token || !status) return;
    form.hidden = false;
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      status.textContent = '';
      var body = new URLSearchParams();
      body.append('csrf_token', token.value);
      fetch(form.getAttribute('data-passkey-options'), { method: 'POST', body: body, credentials: 'same-origin' })
        .then(function (response) {
          return response.json().then(function (options) {
            if (!response.ok) throw { said: options.error };
            return form.getAttribute('data-passkey') === 'register'
              ? webauthn.startRegistration({ optionsJSON: options })
              : webauthn.startAuthentication({ optionsJSON: options });
          });
        })
        .then(function (credential) {
          answer.value = JSON.stringify(credential);
          form.submit();
        })
        .catch(function (error) {
          status.textContent = form.getAttribute('data-failed') + (error && error.said ? ' ' + error.said : '');
        });
    });
  });
})();
`;

/**
 * @simplewebauthn/browser's bundle (a UMD script: `window.SimpleWebAuthnBrowser`), as the package ships it; its
 * `exports` name no bundle, so it is found beside the CommonJS entry (`script/index.js`).
 */
export const WEBAUTHN_BROWSER_SCRIPT = readFileSync(
  path.join(path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '../dist/bundle/index.umd.min.js'),
  'utf8',
);

const digestOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Where each is served: its digest in its name, so that a new version is a new URL. */
export const PASSKEY_SCRIPT_PATH = `/assets/passkeys-${digestOf(PASSKEY_SCRIPT)}.js`;
export const WEBAUTHN_BROWSER_SCRIPT_PATH = `/assets/simplewebauthn-browser-${digestOf(WEBAUTHN_BROWSER_SCRIPT)}.js`;

/** The two, in order (the library first), for a page that has passkey forms. */
export function PasskeyScripts() {
  return (
    <>
      <script src={WEBAUTHN_BROWSER_SCRIPT_PATH} defer />
      <script src={PASSKEY_SCRIPT_PATH} defer />
    </>
  );
}
