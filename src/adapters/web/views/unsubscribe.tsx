import type { MailList } from '../../../application/ports.js';
import { wordsOf } from '../../presentation/words/index.js';
import { Alert, type Frame, LocalizedPage, Notice, actionFor } from './layout.js';

/**
 * The pages of an unsubscribe link (contract §17): what the link would stop, and the button that stops it (opening
 * the link changes nothing: mail scanners open links).
 */

export function UnsubscribePage(props: { frame: Frame; unsubscribeKey: string; list: MailList }) {
  const w = wordsOf(props.frame.locale).unsubscribe;
  return (
    <LocalizedPage frame={props.frame} title={w.title}>
      <h1>{w.title}</h1>
      <p>{w.ask(w.what[props.list])}</p>
      <form
        method="post"
        action={`${actionFor('/account/unsubscribe', props.frame.locale)}&key=${encodeURIComponent(props.unsubscribeKey)}`}
      >
        <input type="hidden" name="List-Unsubscribe" value="One-Click" />
        <button type="submit">{w.button}</button>
      </form>
    </LocalizedPage>
  );
}

export function UnsubscribedPage(props: { frame: Frame; list: MailList }) {
  const w = wordsOf(props.frame.locale).unsubscribe;
  return (
    <LocalizedPage frame={props.frame} title={w.title}>
      <h1>{w.title}</h1>
      <Notice message={w.done(w.what[props.list])} />
      <p>
        <a href="/account/settings">{w.settings}</a>
      </p>
    </LocalizedPage>
  );
}

export function BadUnsubscribePage(props: { frame: Frame }) {
  const w = wordsOf(props.frame.locale).unsubscribe;
  return (
    <LocalizedPage frame={props.frame} title={w.badTitle}>
      <h1>{w.badTitle}</h1>
      <Alert message={w.bad} />
      <p>
        <a href="/account/settings">{w.settings}</a>
      </p>
    </LocalizedPage>
  );
}
