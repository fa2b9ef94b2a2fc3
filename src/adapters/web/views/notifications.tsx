import type { z } from 'zod';
import type { NotificationSchema } from '../../presentation/schemas.js';
import { type ForumWords, WORDS } from '../../presentation/words/index.js';
import { Body, type ForumFrame, ForumPage, Pager } from './forum.js';
import { CsrfField } from './layout.js';

/** A notification as the API shows it (`GET /api/v3/notifications`). */
export type Notification = z.infer<typeof NotificationSchema>;

const words = (frame: ForumFrame): ForumWords => WORDS[frame.locale].forum;

/** Who did it, as a link to their page. */
function Who(props: { login: string | undefined }) {
  return props.login ? <a href={`/${encodeURIComponent(props.login)}`}>{props.login}</a> : <span>?</span>;
}

/** What happened, in a sentence of the reader's language, with the topic it is about as a link. */
function What(props: { notification: Notification; frame: ForumFrame }) {
  const { notification: n, frame } = props;
  const t = words(frame);
  const topic = 'topic' in n && n.topic ? <a href={`/topics/${n.topic.id}`}>{n.topic.title}</a> : <span>{t.goneTopic}</span>;
  const who = <Who login={n.actor?.login} />;
  switch (n.type) {
    case 'TopicReply':
      return <span>{t.notifiedReply(who, topic)}</span>;
    case 'Mention':
      return <span>{t.notifiedMention(who, topic)}</span>;
    case 'NodeChanged':
      return <span>{t.notifiedMoved(topic, n.node?.name ?? '')}</span>;
    case 'Topic':
      return <span>{t.notifiedTopic(who, topic)}</span>;
    case 'Follow':
      return <span>{t.notifiedFollow(who)}</span>;
  }
}

/** The text the notification carries (a reply, a mention), as the API renders it. */
function Excerpt(props: { notification: Notification }) {
  const n = props.notification;
  const post = n.type === 'TopicReply' ? n.reply : n.type === 'Mention' ? n.mention : undefined;
  const html = post && 'body_html' in post ? post.body_html : '';
  return html ? <Body html={html} /> : null;
}

/**
 * The signed-in person's notifications, newest first, the unread ones marked (the page marks them read as it shows
 * them, as homeland's does); each can be deleted, or all at once.
 */
export function NotificationsPage(props: {
  frame: ForumFrame;
  csrf: string;
  notifications: Notification[];
  page: number;
  hasNext: boolean;
}) {
  const { frame, csrf } = props;
  const t = words(frame);
  return (
    <ForumPage frame={frame} title={t.notifications}>
      <h1>{t.notifications}</h1>
      {props.notifications.length === 0 ? (
        <p class="muted">{t.noNotifications}</p>
      ) : (
        <>
          <ol class="notifications">
            {props.notifications.map((n) => (
              <li class={n.read ? 'notification' : 'notification unread'}>
                <div class="about">
                  {n.read ? null : <span class="mark">{t.unread}</span>} <What notification={n} frame={frame} />
                  <span class="muted">
                    {' · '}
                    <time datetime={n.created_at}>{t.at(new Date(n.created_at))}</time>
                  </span>
                </div>
                <Excerpt notification={n} />
                <form method="post" action={`/notifications/${n.id}/delete`} class="act">
                  <CsrfField csrf={csrf} />
                  <button type="submit" class="secondary">
                    {t.deleteNotification}
                  </button>
                </form>
              </li>
            ))}
          </ol>
          <form method="post" action="/notifications/clear" class="act clear">
            <CsrfField csrf={csrf} />
            <button type="submit" class="secondary">
              {t.deleteAllNotifications}
            </button>
          </form>
        </>
      )}
      <Pager frame={frame} page={props.page} hasNext={props.hasNext} path="/notifications" />
    </ForumPage>
  );
}
