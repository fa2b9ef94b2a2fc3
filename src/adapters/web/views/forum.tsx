import type { ComponentChildren } from 'preact';
import type { z } from 'zod';
import { LOCALES } from '../../../domain/users/user.js';
import type {
  NodeSchema,
  ReplyDetailSchema,
  ReplySchema,
  SearchResultSchema,
  TopicDetailSchema,
  TopicSchema,
  UserDetailSchema,
  UserSchema,
} from '../../presentation/schemas.js';
import { type ForumWords, type ModerationWords, WORDS } from '../../presentation/words/index.js';
import { Alert, CsrfField, type Frame, withLang } from './layout.js';
import { SCRIPT_PATH } from './script.js';
import { STYLESHEET_PATH } from './style.js';

/**
 * The forum's pages (contract §21a): what the API shows the same reader, in the wire's own shapes (so a page can show
 * no more and no less than the API), laid out for a phone first. Post bodies enter only as the core's sanitized
 * `body_html`; every other value is text, escaped by the renderer.
 */

export type Topic = z.infer<typeof TopicSchema>;
export type TopicDetail = z.infer<typeof TopicDetailSchema>;
export type Reply = z.infer<typeof ReplySchema>;
export type ReplyDetail = z.infer<typeof ReplyDetailSchema>;
export type Node = z.infer<typeof NodeSchema>;
export type User = z.infer<typeof UserSchema>;
export type UserDetail = z.infer<typeof UserDetailSchema>;
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** Who reads the page: a signed-in person (their login, their forms' token, their unread count), or nobody. */
export interface Reader {
  login: string | null;
  /** The token every form of a signed-in reader carries (derived from their session: browser.ts). */
  csrf?: string;
  /** How many of their notifications are unread (contract §21b: on every page). */
  unread?: number;
  /** An administrator: the header links to the review queue. */
  admin?: boolean;
}

/** What every forum page is told: its language and place, who reads it, and what a search engine should know. */
export interface ForumFrame extends Frame {
  reader: Reader;
  /** The page's canonical absolute URL. */
  canonical: string;
  /** One sentence about the page, for search engines and link previews. */
  description?: string;
  /** What a link preview calls the page (OpenGraph): a topic is an article. */
  kind?: 'website' | 'article';
  /** The page's feed (RSS), for readers that find feeds from a page. */
  feed?: string;
  /** Structured data for search engines (JSON-LD), written into the page as data, never run. */
  structured?: object;
}

/** JSON as a data block inside HTML: `<` escaped, so that no text of a post can close the element. */
const jsonForHtml = (data: object) => JSON.stringify(data).replace(/</g, '\\u003c');

const words = (frame: Frame): ForumWords => WORDS[frame.locale].forum;

/** A time as people read it, with the machine's form in `datetime`. */
export function Time(props: { iso: string | null; frame: Frame }) {
  if (!props.iso) return null;
  return <time datetime={props.iso}>{words(props.frame).at(new Date(props.iso))}</time>;
}

/**
 * One of this service's URLs (an avatar's) as a path: the page is served from the same place, whatever PUBLIC_URL
 * says (a proxy, a test), and the CSP allows the page's own images.
 */
const ownPath = (url: string) => new URL(url).pathname;

/** A login as a link to its profile. */
export function Person(props: { login: string }) {
  return <a href={`/${encodeURIComponent(props.login)}`}>{props.login}</a>;
}

/** The page: the header with the menu and search, the content, the footer with the other languages. */
export function ForumPage(props: { frame: ForumFrame; title: string; children: ComponentChildren; head?: ComponentChildren }) {
  const { frame } = props;
  const t = words(frame);
  const here = frame.here;
  return (
    <html lang={frame.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title === t.siteName ? t.siteName : `${props.title} · ${t.siteName}`}</title>
        {frame.description ? <meta name="description" content={frame.description} /> : null}
        <link rel="canonical" href={frame.canonical} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <meta property="og:site_name" content={t.siteName} />
        <meta property="og:type" content={frame.kind ?? 'website'} />
        <meta property="og:title" content={props.title} />
        <meta property="og:url" content={frame.canonical} />
        {frame.description ? <meta property="og:description" content={frame.description} /> : null}
        <meta property="og:locale" content={frame.locale.replace('-', '_')} />
        <meta name="twitter:card" content="summary" />
        {frame.feed ? <link rel="alternate" type="application/rss+xml" title={props.title} href={frame.feed} /> : null}
        {frame.structured ? (
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForHtml(frame.structured) }} />
        ) : null}
        {props.head}
        {/* Signed in only: a page read signed out asks for no script. */}
        {frame.reader.login ? <script src={SCRIPT_PATH} defer /> : null}
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body class="forum">
        <header class="top">
          <a class="brand" href="/">
            {t.siteName}
          </a>
          <nav aria-label={t.mainMenu}>
            <a href="/topics">{t.topics}</a>
            <a href="/nodes">{t.nodes}</a>
            <a href="/users">{t.users}</a>
            {frame.reader.login ? (
              <>
                <a href="/topics/new">{t.newTopic}</a>
                <a
                  href="/notifications"
                  aria-label={t.notificationsLabel(frame.reader.unread ?? 0)}
                  data-read-label={t.notificationsLabel(0)}
                  data-unread-label={t.unreadTemplate}
                >
                  {t.notifications}
                  {/* A space before the count: the link's visible text, "Notifications 1", is then in its name. */}
                  {frame.reader.unread ? (
                    <>
                      {' '}
                      <span class="count">{frame.reader.unread}</span>
                    </>
                  ) : null}
                </a>
                {/* A link only: an unread count of messages here would be one more query on every signed-in page. */}
                <a href="/messages">{t.messages}</a>
                <a href={`/${encodeURIComponent(frame.reader.login)}`}>{frame.reader.login}</a>
                {frame.reader.admin ? <a href="/admin/review">{t.reviewQueue}</a> : null}
                <a href="/account/settings">{t.settings}</a>
              </>
            ) : (
              <>
                <a href="/account/sign-in">{t.signIn}</a>
                <a href="/account/sign-up">{t.signUp}</a>
              </>
            )}
          </nav>
          <form class="search" role="search" method="get" action="/search">
            <label for="site-search" class="visually-hidden">
              {t.searchLabel}
            </label>
            <input type="search" id="site-search" name="q" placeholder={t.search} />
            <button type="submit">{t.searchButton}</button>
          </form>
        </header>
        <main id="content">{props.children}</main>
        <footer class="bottom muted">
          <a href="/docs">{t.api}</a>
          {here
            ? LOCALES.filter((locale) => locale !== frame.locale).map((locale) => (
                <a href={withLang(here, locale)} lang={locale} hreflang={locale}>
                  {WORDS[locale].languageName}
                </a>
              ))
            : null}
        </footer>
      </body>
    </html>
  );
}

/** Pages of a list: previous and next, as links (`?page=n`). */
export function Pager(props: { frame: Frame; page: number; hasNext: boolean; path: string }) {
  const t = words(props.frame);
  if (props.page <= 1 && !props.hasNext) return null;
  const to = (page: number) => (page <= 1 ? props.path : `${props.path}${props.path.includes('?') ? '&' : '?'}page=${page}`);
  return (
    <nav class="pager" aria-label={t.pagination}>
      {props.page > 1 ? (
        <a href={to(props.page - 1)} rel="prev">
          {t.previous}
        </a>
      ) : null}
      <span aria-current="page">{t.pageOf(props.page)}</span>
      {props.hasNext ? (
        <a href={to(props.page + 1)} rel="next">
          {t.next}
        </a>
      ) : null}
    </nav>
  );
}

/**
 * A topic's mark (pinned, excellent, closed), after a space rather than a margin: one that wraps starts its line
 * flush with the title.
 */
function Mark(props: { children: string }) {
  return (
    <>
      {' '}
      <span class="mark">{props.children}</span>
    </>
  );
}

/**
 * A signed-in reader's list (contract §22): when a topic they never opened stops being new to them, and who they are
 * (their own topics are never new to them).
 */
export interface Freshness {
  since: Date;
  login: string;
}

/**
 * One topic in a list: its title, its marks, its node, author and last reply. A signed-in reader's list (its topics
 * with their `read_state`) says where they left off: how many replies they have yet to read, a link to the first, and
 * a topic made lately that they never opened; a list read signed out has no read state, and says neither.
 */
function TopicItem(props: { topic: Topic; frame: Frame; fresh?: Freshness | undefined }) {
  const { topic, frame, fresh } = props;
  const t = words(frame);
  const state = topic.read_state;
  const unread = state ? state.unread_replies_count : 0;
  const unopened =
    state === null && fresh !== undefined && topic.user.login !== fresh.login && Date.parse(topic.created_at) >= +fresh.since;
  return (
    <li class="topic">
      <a class="title" href={`/topics/${topic.id}`}>
        {topic.title}
      </a>
      {topic.suggested_at ? <Mark>{t.pinned}</Mark> : null}
      {topic.excellent ? <Mark>{t.excellent}</Mark> : null}
      {topic.closed_at ? <Mark>{t.closed}</Mark> : null}
      {unopened ? <Mark>{t.unopened}</Mark> : null}
      {unread > 0 ? (
        <>
          {' '}
          <a class="new-count" href={`/topics/${topic.id}?unread=1`} aria-label={t.newRepliesLink(unread)}>
            {t.newReplies(unread)}
          </a>
        </>
      ) : null}
      <div class="about muted">
        <a href={`/topics/node${topic.node_id}`}>{topic.node_name}</a> · <Person login={topic.user.login} /> ·{' '}
        {topic.last_reply_user_login ? (
          <>
            {t.lastReplyBy} <Person login={topic.last_reply_user_login} /> <Time iso={topic.replied_at} frame={frame} />
          </>
        ) : (
          <Time iso={topic.created_at} frame={frame} />
        )}
        {' · '}
        {t.repliesCount(topic.replies_count)}
      </div>
    </li>
  );
}

export function TopicList(props: { topics: Topic[]; frame: Frame; fresh?: Freshness | undefined }) {
  if (props.topics.length === 0) return <p class="muted">{words(props.frame).noTopics}</p>;
  return (
    <ol class="topics">
      {props.topics.map((topic) => (
        <TopicItem topic={topic} frame={props.frame} fresh={props.fresh} />
      ))}
    </ol>
  );
}

/** The kinds of list, as homeland's tabs. */
export const LIST_PATHS = {
  last_actived: '/topics',
  recent: '/topics/last',
  popular: '/topics/popular',
  no_reply: '/topics/no_reply',
  excellent: '/topics/excellent',
} as const;
/** A list's kind; `last_reply` (homeland's) is served as the active list and has no tab of its own. */
export type ListKind = keyof typeof LIST_PATHS;

/** `/`, `/topics` and its tabs, and a node's topics. */
export function TopicListPage(props: {
  frame: ForumFrame;
  title: string;
  heading: string;
  kind: ListKind | null;
  node?: Node;
  /** A signed-in reader's block of the node (contract §21b): a button, and a line while it is blocked. */
  nodeBlock?: { csrf: string; blocked: boolean };
  topics: Topic[];
  /** A signed-in reader's: which topics are new to them (contract §22). */
  fresh?: Freshness;
  page: number;
  hasNext: boolean;
  path: string;
}) {
  const { frame, node, nodeBlock } = props;
  const t = words(frame);
  return (
    <ForumPage frame={frame} title={props.title}>
      <h1>{props.heading}</h1>
      {node?.summary ? <p class="muted">{node.summary}</p> : null}
      {node && nodeBlock ? (
        <div class="acts">
          <Act
            action={`/nodes/${node.id}/${nodeBlock.blocked ? 'unblock' : 'block'}`}
            csrf={nodeBlock.csrf}
            label={t.block}
            pressed={nodeBlock.blocked}
          />
          {nodeBlock.blocked ? <p class="muted">{t.nodeBlocked}</p> : null}
        </div>
      ) : null}
      {props.kind ? (
        <nav class="tabs" aria-label={t.listsLabel}>
          {(Object.keys(LIST_PATHS) as ListKind[]).map((kind) => (
            <a href={LIST_PATHS[kind]} aria-current={kind === props.kind ? 'page' : undefined}>
              {t.lists[kind]}
            </a>
          ))}
        </nav>
      ) : null}
      <TopicList topics={props.topics} frame={frame} fresh={props.fresh} />
      <Pager frame={frame} page={props.page} hasNext={props.hasNext} path={props.path} />
    </ForumPage>
  );
}

/** A post's body: the core's sanitized HTML, as it is. */
export function Body(props: { html: string }) {
  return <div class="body" dangerouslySetInnerHTML={{ __html: props.html }} />;
}

/**
 * What a signed-in reader may do to a post besides liking it, folded away (no script: `details`): flag it for a
 * moderator (contract §18), and, for what the API lets them delete, delete it.
 */
function PostActs(props: {
  target: string;
  csrf: string;
  canDelete: boolean;
  frame: Frame;
  /** A reply: where its edit page is (when the API lets the reader edit it), and the topic page that quotes it. */
  edit?: string | undefined;
  quote?: string;
}) {
  const t = words(props.frame);
  const id = props.target.replace(/\W+/g, '-');
  return (
    <details class="post-acts">
      <summary>{t.more}</summary>
      {props.quote || props.edit ? (
        <p class="links">
          {props.quote ? <a href={props.quote}>{t.quote}</a> : null}
          {props.edit ? <a href={props.edit}>{t.edit}</a> : null}
        </p>
      ) : null}
      <form method="post" action={`${props.target}/flag`} class="flag">
        <CsrfField csrf={props.csrf} />
        <label for={`${id}-reason`}>{t.flagReason}</label>
        <select id={`${id}-reason`} name="reason" required>
          {FLAG_REASON_NAMES.map((reason) => (
            <option value={reason}>{t.flagReasons[reason]}</option>
          ))}
        </select>
        <label for={`${id}-message`}>
          {t.flagMessage} <small>{t.flagMessageHint}</small>
        </label>
        <input type="text" id={`${id}-message`} name="message" maxlength={500} />
        <button type="submit" class="secondary">
          {t.flagButton}
        </button>
      </form>
      {props.canDelete ? (
        <form method="post" action={`${props.target}/delete`} class="act">
          <CsrfField csrf={props.csrf} />
          <button type="submit" class="secondary">
            {t.deletePost}
          </button>
        </form>
      ) : null}
    </details>
  );
}

/** The reasons a flag may give (contract §18), in the order the form offers them. */
const FLAG_REASON_NAMES = ['spam', 'inappropriate', 'off_topic', 'other'] as const;

/**
 * A reply in its floor: deleted or hidden ones keep their floor, with no text; system events are one line. `topicId`
 * null: a message of a conversation (contract §24), which has none of a topic's reply acts (quote, edit, flag, delete).
 */
export function ReplyItem(props: { reply: Reply; floor: number; frame: ForumFrame; topicId: number | null }) {
  const { reply, floor, frame } = props;
  const t = words(frame);
  const anchor = `reply${floor}`;
  if (reply.action) {
    return (
      <li class="event muted" id={anchor}>
        {t.event(reply.user.login, reply.action)} · <Time iso={reply.created_at} frame={frame} />
      </li>
    );
  }
  const csrf = frame.reader.csrf;
  return (
    <li class="reply" id={anchor}>
      <div class="about muted">
        <a href={`#${anchor}`}>{t.floor(floor)}</a> · {reply.deleted ? null : <Person login={reply.user.login} />}
        {reply.deleted ? null : ' · '}
        <Time iso={reply.created_at} frame={frame} />
        {reply.likes_count > 0 && !reply.deleted ? ` · ${t.likesCount(reply.likes_count)}` : null}
      </div>
      {reply.deleted ? <p class="muted">{t.deletedReply}</p> : <Body html={reply.body_html} />}
      {csrf && !reply.deleted && props.topicId !== null ? (
        <PostActs
          target={`/topics/${props.topicId}/replies/${reply.id}`}
          csrf={csrf}
          canDelete={reply.abilities.destroy}
          edit={reply.abilities.update ? `/topics/${props.topicId}/replies/${reply.id}/edit` : undefined}
          quote={`/topics/${props.topicId}?quote=${reply.id}#reply-form`}
          frame={frame}
        />
      ) : null}
    </li>
  );
}

/** A topic and a page of its replies (100 a page), floors counted from the first reply. */
/** What the signed-in reader has done to a topic (the API's `meta`). */
export interface TopicMeta {
  followed: boolean;
  liked: boolean;
  favorited: boolean;
}

/** The reply form as it stands: what was typed, a refusal, a preview (the server's rendering). */
export interface ReplyDraft {
  body: string;
  error?: string;
  preview?: string;
}

/** One button that posts (a form of its own, with the reader's token): an act on a page, without a script. */
export function Act(props: { action: string; csrf: string; label: string; pressed?: boolean }) {
  return (
    <form method="post" action={props.action} class="act">
      <CsrfField csrf={props.csrf} />
      <button
        type="submit"
        class="secondary"
        aria-pressed={props.pressed === undefined ? undefined : props.pressed ? 'true' : 'false'}
      >
        {props.label}
      </button>
    </form>
  );
}

/** Like, follow, favorite: each a button that turns it on or off. */
function TopicActs(props: { topicId: number; meta: TopicMeta; csrf: string; frame: Frame }) {
  const t = words(props.frame);
  const base = `/topics/${props.topicId}`;
  const { meta, csrf } = props;
  return (
    <div class="acts">
      <Act action={`${base}/${meta.liked ? 'unlike' : 'like'}`} csrf={csrf} label={t.like} pressed={meta.liked} />
      <Act action={`${base}/${meta.followed ? 'unfollow' : 'follow'}`} csrf={csrf} label={t.follow} pressed={meta.followed} />
      <Act
        action={`${base}/${meta.favorited ? 'unfavorite' : 'favorite'}`}
        csrf={csrf}
        label={t.favorite}
        pressed={meta.favorited}
      />
    </div>
  );
}

/**
 * Above a writing form: what the core refused (the API's words), and the post as the server renders it (a preview),
 * under its title for a topic.
 */
export function DraftNotes(props: { error?: string | undefined; preview?: string | undefined; title?: string; frame: Frame }) {
  const t = words(props.frame);
  return (
    <>
      {props.error ? (
        <p class="alert" role="alert">
          {props.error}
        </p>
      ) : null}
      {props.preview !== undefined ? (
        <section class="preview" aria-label={t.preview}>
          <p class="muted">{t.preview}</p>
          {props.title !== undefined ? <h2>{props.title}</h2> : null}
          <Body html={props.preview} />
        </section>
      ) : null}
    </>
  );
}

/** The file field of a post's form (post-image.ts reads it). */
export const IMAGE_FIELD = 'image';

/**
 * A post's Markdown field with its hint, its image field (contract §21b: posted with the form; the page's script, when
 * it runs, uploads the image at once and puts it where the cursor is, saying so in the hint), then Preview and the
 * form's own button (reply, publish, save). Its form is sent as multipart/form-data.
 */
export function PostBody(props: { id: string; label: string; body: string; rows: number; submit: string; frame: Frame }) {
  const t = words(props.frame);
  const { id } = props;
  return (
    <>
      <label for={id}>{props.label}</label>
      {/* The text as a child, not `value`: children are escaped as every text of ours is (presentation/html.ts). */}
      <textarea id={id} name="body" rows={props.rows} required aria-describedby={`${id}-hint`}>
        {props.body}
      </textarea>
      <p class="hint" id={`${id}-hint`}>
        {t.markdownHint}
      </p>
      <label for={`${id}-image`}>{t.addImage}</label>
      <input
        type="file"
        id={`${id}-image`}
        name={IMAGE_FIELD}
        accept="image/png,image/jpeg,image/gif,image/webp"
        aria-describedby={`${id}-image-hint`}
        data-upload-into={id}
        data-uploading={t.uploading}
        data-added={t.imageAdded}
        data-failed={t.uploadFailed}
      />
      <p class="hint" id={`${id}-image-hint`} aria-live="polite">
        {t.imageHint}
      </p>
      <div class="row">
        <button type="submit" name="preview" value="1" class="secondary">
          {t.previewButton}
        </button>
        <button type="submit">{props.submit}</button>
      </div>
    </>
  );
}

/**
 * The reply form: Markdown, a preview rendered by the server, what was refused said above it; posted to `action` (a
 * topic's replies, a conversation's), coming back at the form.
 */
export function ReplyForm(props: { action: string; csrf: string; draft: ReplyDraft | undefined; frame: Frame; submit?: string }) {
  const t = words(props.frame);
  const draft = props.draft;
  return (
    <form method="post" action={`${props.action}#reply-form`} enctype="multipart/form-data" id="reply-form" class="reply-form">
      <DraftNotes error={draft?.error} preview={draft?.preview} frame={props.frame} />
      <CsrfField csrf={props.csrf} />
      <PostBody
        id="reply-body"
        label={t.yourReply}
        body={draft?.body ?? ''}
        rows={6}
        submit={props.submit ?? t.replyButton}
        frame={props.frame}
      />
    </form>
  );
}

/**
 * Where a signed-in reader replies: the form, or instead of it why there is none, when the node lets only some reply
 * (`refused`: who may, contract §23) or the topic is closed. A reply refused comes back in the form all the same, with
 * the refusal and what was typed.
 */
function ReplyArea(props: { topic: TopicDetail; csrf: string; draft: ReplyDraft | undefined; refused?: string; frame: Frame }) {
  const { topic, draft } = props;
  if (props.refused && draft?.error === undefined) return <p class="muted">{props.refused}</p>;
  if (topic.closed_at && !draft) return <p class="muted">{words(props.frame).closedToReplies}</p>;
  return <ReplyForm action={`/topics/${topic.id}/replies`} csrf={props.csrf} draft={draft} frame={props.frame} />;
}

/**
 * The first submit button of a form is the one Enter presses in its fields: a disabled one there makes Enter press
 * none, so that typing a reason and pressing Enter does not pin, ban or delete anything.
 */
export function NoImplicitSubmit() {
  return <button type="submit" disabled hidden />;
}

/** A moderation form's reason (kept in the audit log), with what was typed when the form comes back refused. */
function ReasonField(props: { typed: string | undefined; words: ModerationWords }) {
  const m = props.words;
  return (
    <>
      <label for="moderation-reason">{m.reason}</label>
      <input
        type="text"
        id="moderation-reason"
        name="reason"
        maxlength={500}
        value={props.typed ?? ''}
        aria-describedby="moderation-reason-hint"
      />
      <p class="hint" id="moderation-reason-hint">
        {m.reasonHint}
      </p>
    </>
  );
}

/** A button of a moderation form: the act it asks for. */
function ModerationButton(props: { act: string; label: string; danger?: boolean }) {
  return (
    <button type="submit" name="act" value={props.act} class={props.danger ? 'secondary danger' : 'secondary'}>
      {props.label}
    </button>
  );
}

/** What a refused moderation form had in it, shown again. */
export interface ModerationTyped {
  reason?: string;
  nodeId?: string;
  days?: string;
}

/**
 * A topic's moderation (contract §21b), for whom the API lets ban it (administrators, the node's moderators): pin,
 * excellent, close, ban, delete and move, each posted to the use case the API calls (POST /topics/:id/moderate), with a
 * reason the audit log keeps, and the link to the review queue, which holds the items they resolve. `nodes`: where it
 * may move (else a link to the topic's moderation page, which has them).
 */
export function TopicModeration(props: {
  topic: TopicDetail;
  csrf: string;
  frame: ForumFrame;
  nodes?: Node[] | undefined;
  typed?: ModerationTyped | undefined;
  children?: ComponentChildren;
}) {
  const { topic, typed } = props;
  const m = WORDS[props.frame.locale].moderation;
  return (
    <section class="moderation" aria-labelledby="moderation">
      <h2 id="moderation">{m.panel}</h2>
      <form method="post" action={`/topics/${topic.id}/moderate`}>
        <NoImplicitSubmit />
        <CsrfField csrf={props.csrf} />
        <ReasonField typed={typed?.reason} words={m} />
        <div class="acts">
          <ModerationButton act={topic.suggested_at ? 'unsuggest' : 'suggest'} label={topic.suggested_at ? m.unpin : m.pin} />
          <ModerationButton
            act={topic.excellent ? 'unexcellent' : 'excellent'}
            label={topic.excellent ? m.unexcellent : m.excellent}
          />
          <ModerationButton act={topic.closed_at ? 'open' : 'close'} label={topic.closed_at ? m.open : m.close} />
          <ModerationButton act="ban" label={m.ban} danger />
          <ModerationButton act="delete" label={m.delete} danger />
        </div>
        {props.nodes ? (
          <>
            <label for="moderation-node">{m.moveTo}</label>
            <div class="field">
              <select id="moderation-node" name="node_id">
                <option value="">{m.chooseNode}</option>
                {props.nodes.map((node) => (
                  <option value={String(node.id)} selected={typed?.nodeId === String(node.id)}>
                    {node.name}
                  </option>
                ))}
              </select>
              <ModerationButton act="move" label={m.move} />
            </div>
          </>
        ) : null}
      </form>
      <p class="links">
        {props.nodes ? null : <a href={`/topics/${topic.id}/moderate`}>{m.moveElsewhere}</a>}
        {props.nodes ? null : ' · '}
        {/* A node's moderator's queue holds the items of posts in their nodes (contract §23). */}
        {props.children ?? <a href="/admin/review">{m.reviewQueue}</a>}
      </p>
    </section>
  );
}

export function TopicPage(props: {
  frame: ForumFrame;
  topic: TopicDetail;
  replies: Reply[];
  firstFloor: number;
  page: number;
  hasNext: boolean;
  /**
   * The first reply the signed-in reader had yet to read before this page (contract §22): a line above it, where
   * new replies begin, when it is on this page.
   */
  firstUnreadId?: number;
  /** The signed-in reader's relation to it. */
  meta?: TopicMeta;
  /** The reply form as the reader left it (refused, or previewed). */
  draft?: ReplyDraft;
  /** What was just done (a reply held for review, a flag taken). */
  notice?: string;
  /** What the core refused of a form that has no place of its own on the page (a flag). */
  alert?: string;
  /** Where an administrator may move it, for the moderation panel's node list (else it links to a page that has it). */
  moderationNodes?: Node[];
  /** Instead of the reply form: who may reply, to a signed-in reader the node does not let (contract §23). */
  replyRefused?: string;
}) {
  const { frame, topic } = props;
  const t = words(frame);
  const csrf = frame.reader.csrf;
  return (
    <ForumPage frame={frame} title={topic.title}>
      <article class="post">
        <h1>{topic.title}</h1>
        <div class="about muted">
          <a href={`/topics/node${topic.node_id}`}>{topic.node_name}</a> · <Person login={topic.user.login} /> ·{' '}
          <Time iso={topic.created_at} frame={frame} /> · {t.hits(topic.hits)}
          {topic.likes_count > 0 ? ` · ${t.likesCount(topic.likes_count)}` : null}
          {topic.suggested_at ? <Mark>{t.pinned}</Mark> : null}
          {topic.excellent ? <Mark>{t.excellent}</Mark> : null}
          {topic.closed_at ? <Mark>{t.closed}</Mark> : null}
        </div>
        <Body html={topic.body_html} />
        {csrf && props.meta ? <TopicActs topicId={topic.id} meta={props.meta} csrf={csrf} frame={frame} /> : null}
        {csrf ? (
          <PostActs
            target={`/topics/${topic.id}`}
            csrf={csrf}
            // Whom the moderation panel is shown deletes from it, with a reason for the audit log: one Delete, not two.
            canDelete={topic.abilities.destroy && !topic.abilities.ban}
            edit={topic.abilities.update ? `/topics/${topic.id}/edit` : undefined}
            frame={frame}
          />
        ) : null}
      </article>
      {/* Whom the API lets ban the topic: administrators, the node's moderators (its use cases decide each act again). */}
      {csrf && topic.abilities.ban ? (
        <TopicModeration topic={topic} csrf={csrf} frame={frame} nodes={props.moderationNodes} />
      ) : null}
      {props.notice ? (
        <p class="notice" role="status">
          {props.notice}
        </p>
      ) : null}
      {props.alert ? (
        <p class="alert" role="alert">
          {props.alert}
        </p>
      ) : null}
      <section aria-labelledby="replies">
        <h2 id="replies">
          {t.replies} <span class="muted">({topic.replies_count})</span>
        </h2>
        {props.replies.length === 0 && props.page === 1 ? <p class="muted">{t.noReplies}</p> : <Replies {...props} />}
        <Pager frame={frame} page={props.page} hasNext={props.hasNext} path={`/topics/${topic.id}`} />
        {csrf ? (
          <ReplyArea
            topic={topic}
            csrf={csrf}
            draft={props.draft}
            {...(props.replyRefused ? { refused: props.replyRefused } : {})}
            frame={frame}
          />
        ) : (
          <p class="reply-cta">
            <a href={`/account/sign-in`}>{t.signInToReply}</a>
          </p>
        )}
      </section>
    </ForumPage>
  );
}

/**
 * A page of a topic's replies by floor; where the reader's new replies begin on it, two lists with a line between
 * them: a heading, so that a screen reader can go to it as a sighted reader's eye does.
 */
function Replies(props: { frame: ForumFrame; topic: TopicDetail; replies: Reply[]; firstFloor: number; firstUnreadId?: number }) {
  const { frame, topic } = props;
  const items = props.replies.map((reply, i) => (
    <ReplyItem reply={reply} floor={props.firstFloor + i} frame={frame} topicId={topic.id} />
  ));
  const split = props.replies.findIndex((reply) => reply.id === props.firstUnreadId);
  if (split < 0) return <ol class="replies">{items}</ol>;
  return (
    <>
      {split > 0 ? <ol class="replies">{items.slice(0, split)}</ol> : null}
      <h3 class="new-replies">{words(frame).newRepliesLine}</h3>
      <ol class="replies">{items.slice(split)}</ol>
    </>
  );
}

/** The nodes by section, in the order given; `section` null: the nodes in none (headed "Nodes" in the page's language). */
export function NodesPage(props: { frame: ForumFrame; sections: { section: string | null; nodes: Node[] }[] }) {
  const t = words(props.frame);
  return (
    <ForumPage frame={props.frame} title={t.nodes}>
      <h1>{t.nodes}</h1>
      {props.sections.map(({ section, nodes }) => (
        <section>
          <h2>{section ?? t.nodes}</h2>
          <ul class="nodes">
            {nodes.map((node) => (
              <li>
                <a href={`/topics/node${node.id}`}>{node.name}</a> <span class="muted">({node.topics_count})</span>
                {node.summary ? <div class="muted">{node.summary}</div> : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </ForumPage>
  );
}

/** People, as links to their profiles. */
function People(props: { users: User[]; frame: Frame }) {
  if (props.users.length === 0) return <p class="muted">{words(props.frame).nobody}</p>;
  return (
    <ul class="people">
      {props.users.map((user) => (
        <li>
          <img src={ownPath(user.avatar_url)} alt="" width={32} height={32} loading="lazy" />
          <Person login={user.login} />
          {user.name && user.name !== user.login ? <span class="muted"> {user.name}</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function UsersPage(props: { frame: ForumFrame; users: User[] }) {
  const t = words(props.frame);
  return (
    <ForumPage frame={props.frame} title={t.activeUsers}>
      <h1>{t.activeUsers}</h1>
      <People users={props.users} frame={props.frame} />
    </ForumPage>
  );
}

/** What a profile's tabs show. */
export type ProfileTab = 'topics' | 'replies' | 'favorites' | 'followers' | 'following';

/**
 * A member's moderation (contract §18, §21b), for whom the API lets manage accounts (administrators): silence or
 * suspend for some days, or lift either, each the use case forumctl calls (POST /admin/users/:login), with a reason the
 * audit log keeps.
 */
export function UserModeration(props: {
  login: string;
  csrf: string;
  frame: Frame;
  typed?: ModerationTyped | undefined;
  children?: ComponentChildren;
}) {
  const { typed } = props;
  const m = WORDS[props.frame.locale].moderation;
  return (
    <section class="moderation" aria-labelledby="moderation">
      <h2 id="moderation">{m.panel}</h2>
      <form method="post" action={`/admin/users/${encodeURIComponent(props.login)}`}>
        <NoImplicitSubmit />
        <CsrfField csrf={props.csrf} />
        <label for="moderation-days">{m.days}</label>
        <input
          type="number"
          id="moderation-days"
          name="days"
          min={1}
          max={3650}
          inputmode="numeric"
          value={typed?.days ?? ''}
          aria-describedby="moderation-days-hint"
        />
        <p class="hint" id="moderation-days-hint">
          {m.daysHint}
        </p>
        <ReasonField typed={typed?.reason} words={m} />
        <div class="acts">
          <ModerationButton act="silence" label={m.silence} danger />
          <ModerationButton act="suspend" label={m.suspend} danger />
          <ModerationButton act="unsilence" label={m.unsilence} />
          <ModerationButton act="unsuspend" label={m.unsuspend} />
        </div>
      </form>
      <p class="links">
        {props.children ?? (
          <>
            <a href={`/admin/users/${encodeURIComponent(props.login)}`}>{m.standingLink}</a>
            {' · '}
            <a href="/admin/review">{m.reviewQueue}</a>
          </>
        )}
      </p>
    </section>
  );
}

/** A profile: who they are, then one of its lists (its topics by default). */
export function ProfilePage(props: {
  frame: ForumFrame;
  user: UserDetail;
  tab: ProfileTab;
  topics?: Topic[];
  replies?: ReplyDetail[];
  users?: User[];
  page: number;
  hasNext: boolean;
  /** The signed-in reader's relation to this member (the API's `meta`); none for oneself or signed out. */
  relation?: { followed: boolean; blocked: boolean };
}) {
  const { frame, user } = props;
  const t = words(frame);
  const base = `/${encodeURIComponent(user.login)}`;
  const csrf = frame.reader.csrf;
  const tabs: [ProfileTab, string, number][] = [
    ['topics', t.userTopics, user.topics_count],
    ['replies', t.userReplies, user.replies_count],
    ['favorites', t.userFavorites, user.favorites_count],
    ['followers', t.followers, user.followers_count],
    ['following', t.following, user.following_count],
  ];
  return (
    <ForumPage frame={frame} title={user.name && user.name !== user.login ? `${user.login} (${user.name})` : user.login}>
      <div class="profile">
        <img src={ownPath(user.avatar_url)} alt="" width={64} height={64} />
        <div>
          <h1>{user.login}</h1>
          {user.name && user.name !== user.login ? <p>{user.name}</p> : null}
          {user.tagline ? <p>{user.tagline}</p> : null}
          <p class="muted">
            {t.joined(new Date(user.created_at))}
            {user.location ? ` · ${user.location}` : null}
            {user.website ? (
              <>
                {' · '}
                <a href={user.website} rel="nofollow ugc noopener">
                  {user.website}
                </a>
              </>
            ) : null}
          </p>
        </div>
      </div>
      {user.bio ? <p>{user.bio}</p> : null}
      {csrf && props.relation ? (
        <div class="acts">
          <Act
            action={`${base}/${props.relation.followed ? 'unfollow' : 'follow'}`}
            csrf={csrf}
            label={t.follow}
            pressed={props.relation.followed}
          />
          <Act
            action={`${base}/${props.relation.blocked ? 'unblock' : 'block'}`}
            csrf={csrf}
            label={t.block}
            pressed={props.relation.blocked}
          />
          {/* Whether they take messages from the reader is the use case's to say (a block is not told): always offered. */}
          <a class="act-link" href={`/messages/new?to=${encodeURIComponent(user.login)}`}>
            {WORDS[frame.locale].messages.sendMessage}
          </a>
        </div>
      ) : null}
      <nav class="tabs" aria-label={t.profileOf(user.login)}>
        {tabs.map(([tab, name, count]) => (
          <a href={tab === 'topics' ? base : `${base}/${tab}`} aria-current={tab === props.tab ? 'page' : undefined}>
            {name} <span class="muted">{count}</span>
          </a>
        ))}
      </nav>
      {props.topics ? <TopicList topics={props.topics} frame={frame} /> : null}
      {props.replies ? (
        props.replies.length === 0 ? (
          <p class="muted">{t.noReplies}</p>
        ) : (
          <ol class="replies">
            {props.replies.map((reply) => (
              <li class="reply">
                <div class="about muted">
                  {t.replyIn} <a href={`/topics/${reply.topic_id}`}>{reply.topic_title}</a> ·{' '}
                  <Time iso={reply.created_at} frame={frame} />
                </div>
                <Body html={reply.body_html} />
              </li>
            ))}
          </ol>
        )
      ) : null}
      {props.users ? <People users={props.users} frame={frame} /> : null}
      <Pager
        frame={frame}
        page={props.page}
        hasNext={props.hasNext}
        path={props.tab === 'topics' ? base : `${base}/${props.tab}`}
      />
      {/* An administrator's: the API gives only them the ability to manage accounts (the use case decides again). */}
      {frame.reader.csrf && user.abilities.update ? (
        <UserModeration login={user.login} csrf={frame.reader.csrf} frame={frame} />
      ) : null}
    </ForumPage>
  );
}

/** Search: the form, and the results with their highlighted excerpts (text with `<mark>`, escaped by the core). */
export function SearchPage(props: {
  frame: ForumFrame;
  q: string;
  results: SearchResult[] | null;
  page: number;
  hasNext: boolean;
  /** The search's refusal of these words, in the reader's language. */
  refused?: string;
}) {
  const { frame } = props;
  const t = words(frame);
  return (
    <ForumPage frame={frame} title={t.searchTitle(props.q)}>
      <h1>{t.searchTitle(props.q)}</h1>
      <Alert message={props.refused} />
      <form method="get" action="/search" role="search" class="search-page">
        <label for="q">{t.searchLabel}</label>
        <div class="field">
          <input type="search" id="q" name="q" value={props.q} aria-describedby="q-hint" />
          <button type="submit">{t.searchButton}</button>
        </div>
        <p class="hint" id="q-hint">
          {t.searchIntro}
        </p>
      </form>
      {props.results === null ? null : props.results.length === 0 ? (
        <p class="muted">{t.noResults}</p>
      ) : (
        <ol class="topics">
          {props.results.map((result) => (
            <li class="topic">
              <a class="title" href={`/topics/${result.topic.id}`}>
                {result.topic.title}
              </a>
              <p class="excerpt" dangerouslySetInnerHTML={{ __html: result.highlight }} />
            </li>
          ))}
        </ol>
      )}
      <Pager frame={frame} page={props.page} hasNext={props.hasNext} path={`/search?q=${encodeURIComponent(props.q)}`} />
    </ForumPage>
  );
}

/** Nothing here, or nothing for this reader: one page for both (it must not tell them apart). */
export function NotFoundPage(props: { frame: ForumFrame }) {
  const t = words(props.frame);
  return (
    <ForumPage frame={props.frame} title={t.notFoundTitle}>
      <h1>{t.notFoundTitle}</h1>
      <p>{t.notFound}</p>
      <p>
        <a href="/">{t.backHome}</a>
      </p>
    </ForumPage>
  );
}
