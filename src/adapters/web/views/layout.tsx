import type { ComponentChildren } from 'preact';
import { LOCALES, type Locale } from '../../../domain/users/user.js';
import { WORDS } from '../../presentation/words/index.js';
import { STYLE } from './style.js';

/**
 * The chrome every page wears: one small inline style sheet (style.ts), laid out for a phone first; no scripts.
 * A page is a function of typed data; text and attribute values are escaped by the renderer
 * (presentation/html.ts), so nothing a person typed can become markup.
 */

/** The language a page is written in, and where it is (for the links to the same page in another language). */
export interface Frame {
  locale: Locale;
  /**
   * The page's path and query, without `lang`, for the link to it in the other language; none for the answer to
   * a form (following a link would not send the form again).
   */
  here?: string;
}

/** A form's target: the language goes along, so that the answer is in the language of the page that sent it. */
export function actionFor(path: string, locale: Locale): string {
  return `${path}?lang=${encodeURIComponent(locale)}`;
}

/** A link to a page in a language. */
export function withLang(here: string, locale: Locale): string {
  return `${here}${here.includes('?') ? '&' : '?'}lang=${encodeURIComponent(locale)}`;
}

/** A whole page: its title, its body, in a language (the `lang` attribute). */
export function Document(props: { title: string; lang: Locale; children: ComponentChildren }) {
  return (
    <html lang={props.lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{props.title}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Ours, whole and as it is: the Content-Security-Policy allows it by the hash of exactly these bytes. */}
        <style dangerouslySetInnerHTML={{ __html: STYLE }} />
      </head>
      <body>
        <main>
          <div class="site">
            <a href="/">forum</a>
          </div>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** A page in the reader's language, with links to the same page in the others when it can be asked for again. */
export function LocalizedPage(props: { frame: Frame; title: string; children: ComponentChildren }) {
  const { frame } = props;
  const here = frame.here;
  return (
    <Document title={props.title} lang={frame.locale}>
      {props.children}
      {here ? (
        <nav class="languages muted">
          {LOCALES.filter((locale) => locale !== frame.locale).map((locale) => (
            <a href={withLang(here, locale)} lang={locale}>
              {WORDS[locale].languageName}
            </a>
          ))}
        </nav>
      ) : null}
    </Document>
  );
}

/** What the core (or the page) refused, beside the form. */
export function Alert(props: { message: string | undefined }) {
  return props.message ? (
    <p class="alert" role="alert">
      {props.message}
    </p>
  ) : null;
}

/** What was done. */
export function Notice(props: { message: string | undefined }) {
  return props.message ? (
    <p class="notice" role="status">
      {props.message}
    </p>
  ) : null;
}

/** The form's CSRF token (browser.ts). */
export function CsrfField(props: { csrf: string }) {
  return <input type="hidden" name="csrf_token" value={props.csrf} />;
}

/**
 * The login (or login-or-e-mail) field every sign-in, sign-up and forgot form starts with, focused, never
 * capitalized or spell-checked by a phone.
 */
export function LoginField(props: { label: string; value: string | undefined; maxlength?: number; describedBy?: string }) {
  return (
    <>
      <label for="login">{props.label}</label>
      <input
        type="text"
        id="login"
        name="login"
        value={props.value ?? ''}
        autocomplete="username"
        autocapitalize="none"
        spellcheck={false}
        maxlength={props.maxlength}
        aria-describedby={props.describedBy}
        required
        autofocus
      />
    </>
  );
}

/**
 * A new password (posted as `password`), with its hint (contract §16b: 8 to 128 characters), and, when `repeat` is
 * given, the field that repeats it (`password_confirmation`). `ids` name the fields on their page.
 */
export function NewPasswordFields(props: {
  label: string;
  hint: string;
  ids: { password: string; repeat?: string };
  repeat?: string;
  autofocus?: boolean;
}) {
  const hint = `${props.ids.password}-hint`;
  return (
    <>
      <label for={props.ids.password}>{props.label}</label>
      <input
        type="password"
        id={props.ids.password}
        name="password"
        autocomplete="new-password"
        minlength={8}
        maxlength={128}
        aria-describedby={hint}
        required
        autofocus={props.autofocus}
      />
      <p class="hint" id={hint}>
        {props.hint}
      </p>
      {props.repeat !== undefined && props.ids.repeat !== undefined && (
        <>
          <label for={props.ids.repeat}>{props.repeat}</label>
          <input
            type="password"
            id={props.ids.repeat}
            name="password_confirmation"
            autocomplete="new-password"
            maxlength={128}
            required
          />
        </>
      )}
    </>
  );
}
