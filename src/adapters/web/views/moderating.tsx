import type { z } from 'zod';
import type { ReviewItemSchema } from '../../presentation/schemas.js';
import { WORDS } from '../../presentation/words/index.js';
import {
  Body,
  type ForumFrame,
  ForumPage,
  type ModerationTyped,
  NoImplicitSubmit,
  type Node,
  Pager,
  type TopicDetail,
  TopicModeration,
  type UserDetail,
  UserModeration,
} from './forum.js';
import { CsrfField, type Frame } from './layout.js';

/**
 * Moderation as pages (contract §18, §21b), for administrators: a topic's and a member's moderation page (where a
 * topic moves, where a member's standing shows, and where a refused act comes back with the refusal and what was
 * typed), and the review queue with §18's actions (a node's moderator's too, §23). Every act is a form posted to the
 * use case the API or forumctl calls; these views decide nothing.
 */

export type ReviewItem = z.infer<typeof ReviewItemSchema>;

const words = (frame: Frame) => WORDS[frame.locale];

/** A login as a link to its profile. */
function Person(props: { login: string }) {
  return <a href={`/${encodeURIComponent(props.login)}`}>{props.login}</a>;
}

/** A time as people read it, with the machine's form in `datetime`. */
function Time(props: { iso: string | null; frame: Frame }) {
  if (!props.iso) return null;
  return <time datetime={props.iso}>{words(props.frame).forum.at(new Date(props.iso))}</time>;
}

function Alert(props: { message: string | undefined }) {
  if (!props.message) return null;
  return (
    <p class="alert" role="alert">
      {props.message}
    </p>
  );
}

/** A refused act, as what was refused and what was typed. */
export interface ModerationRefusal {
  message: string;
  typed: ModerationTyped;
}

/**
 * A topic's moderation page: the panel with the nodes it may move to. Someone the act was refused to who may not
 * moderate (`may` false) sees the refusal and the way back, nothing else.
 */
export function ModerateTopicPage(props: {
  frame: ForumFrame;
  topic: TopicDetail;
  nodes: Node[];
  may: boolean;
  refusal?: ModerationRefusal;
}) {
  const { frame, topic } = props;
  const m = words(frame).moderation;
  const csrf = frame.reader.csrf;
  return (
    <ForumPage frame={frame} title={m.moderateTopic(topic.title)}>
      <h1>{m.moderateTopic(topic.title)}</h1>
      <p>
        <a href={`/topics/${topic.id}`}>{m.backToTopic}</a>
      </p>
      <Alert message={props.refusal?.message} />
      {props.may && csrf ? (
        <TopicModeration topic={topic} csrf={csrf} frame={frame} nodes={props.nodes} typed={props.refusal?.typed} />
      ) : null}
    </ForumPage>
  );
}

/** When a silence and a suspension in force end (ISO), or null. */
export interface Standing {
  silencedUntil: string | null;
  suspendedUntil: string | null;
}

/** A member's moderation page: their standing, and the panel. */
export function ModerateUserPage(props: {
  frame: ForumFrame;
  user: UserDetail;
  standing: Standing | null;
  may: boolean;
  refusal?: ModerationRefusal;
}) {
  const { frame, user, standing } = props;
  const m = words(frame).moderation;
  const at = (iso: string) => words(frame).forum.at(new Date(iso));
  const csrf = frame.reader.csrf;
  const profile = `/${encodeURIComponent(user.login)}`;
  return (
    <ForumPage frame={frame} title={m.moderateUser(user.login)}>
      <h1>{m.moderateUser(user.login)}</h1>
      <p>
        <a href={profile}>{m.backToProfile}</a>
      </p>
      <Alert message={props.refusal?.message} />
      {props.may && standing ? (
        <section aria-labelledby="standing" class="standing">
          <h2 id="standing">{m.standing}</h2>
          <ul>
            <li>{standing.silencedUntil ? m.silencedUntil(at(standing.silencedUntil)) : m.notSilenced}</li>
            <li>{standing.suspendedUntil ? m.suspendedUntil(at(standing.suspendedUntil)) : m.notSuspended}</li>
          </ul>
        </section>
      ) : null}
      {props.may && csrf ? (
        <UserModeration login={user.login} csrf={csrf} frame={frame} typed={props.refusal?.typed}>
          <a href="/admin/review">{m.reviewQueue}</a>
        </UserModeration>
      ) : null}
    </ForumPage>
  );
}

/** An act refused to someone who may not moderate: what was refused, and the way back. */
export function RefusedPage(props: { frame: ForumFrame; message: string; back: { href: string; label: string } }) {
  const m = words(props.frame).moderation;
  return (
    <ForumPage frame={props.frame} title={m.refusedTitle}>
      <h1>{m.refusedTitle}</h1>
      <Alert message={props.message} />
      <p>
        <a href={props.back.href}>{props.back.label}</a>
      </p>
    </ForumPage>
  );
}

/** The post an item is about: its title or topic, its author and time, its body (the core's sanitized HTML). */
function ReviewedPost(props: { item: ReviewItem; frame: Frame }) {
  const { item, frame } = props;
  const m = words(frame).moderation;
  const topic = item.topic;
  const reply = item.reply;
  const message = item.message;
  if (message) {
    // A private message (contract §24): that message alone, nothing of its conversation; the look is audited.
    return (
      <div class="reviewed">
        <div class="about muted">
          {m.privateMessage} · {m.by} <Person login={message.user.login} /> · <Time iso={message.created_at} frame={frame} />
        </div>
        {message.deleted ? <p class="muted">{m.postDeleted}</p> : <Body html={message.body_html} />}
        <p class="muted">{m.lookRecorded}</p>
      </div>
    );
  }
  const deleted = topic ? topic.deleted : (reply?.deleted ?? true);
  return (
    <div class="reviewed">
      <div class="about muted">
        {topic ? (
          <a href={`/topics/${topic.id}`}>{topic.title}</a>
        ) : reply ? (
          <>
            {m.inTopic} <a href={`/topics/${reply.topic_id}`}>{reply.topic_title}</a>
          </>
        ) : null}
        {' · '}
        {m.by} <Person login={item.user.login} /> · <Time iso={topic?.created_at ?? reply?.created_at ?? null} frame={frame} />
      </div>
      {deleted ? <p class="muted">{m.postDeleted}</p> : <Body html={topic ? topic.body_html : (reply?.body_html ?? '')} />}
    </div>
  );
}

/** The actions that resolve an item of this kind (a flag is agreed or disagreed with, a hold approved or rejected). */
const ACTIONS = {
  flag: ['agree', 'disagree', 'spammer'],
  hold: ['approve', 'reject', 'spammer'],
} as const;

/**
 * A pending item's form: the reason, a silence for the author, and the actions of its kind; for a node's moderator
 * (`moderatorOnly`), neither the silence nor `spammer`, which stay the administrators' (contract §23).
 */
function Resolve(props: {
  item: ReviewItem;
  csrf: string;
  frame: Frame;
  typed?: ModerationTyped | undefined;
  moderatorOnly: boolean;
}) {
  const { item, typed, moderatorOnly } = props;
  const m = words(props.frame).moderation;
  const id = item.id;
  return (
    <form method="post" action={`/admin/review/${id}`} class="resolve">
      <NoImplicitSubmit />
      <CsrfField csrf={props.csrf} />
      <div class="fields">
        <div>
          <label for={`reason-${id}`}>{m.reason}</label>
          <input type="text" id={`reason-${id}`} name="reason" maxlength={500} value={typed?.reason ?? ''} />
        </div>
        {moderatorOnly ? null : (
          <div>
            <label for={`days-${id}`}>{m.silenceDays}</label>
            <input
              type="number"
              id={`days-${id}`}
              name="silence_days"
              min={1}
              max={3650}
              inputmode="numeric"
              value={typed?.days ?? ''}
              aria-describedby={`days-hint-${id}`}
            />
            <p class="hint" id={`days-hint-${id}`}>
              {m.silenceDaysHint}
            </p>
          </div>
        )}
      </div>
      <div class="acts">
        {ACTIONS[item.kind]
          .filter((action) => !(moderatorOnly && action === 'spammer'))
          .map((action) => (
            <button
              type="submit"
              name="action"
              value={action}
              class={action === 'disagree' || action === 'approve' ? 'secondary' : 'secondary danger'}
            >
              {m.actions[action]}
            </button>
          ))}
      </div>
    </form>
  );
}

/** One item: what it is, the post, its flags, and its form (pending) or how it was resolved. */
function ReviewEntry(props: {
  item: ReviewItem;
  csrf: string | undefined;
  frame: Frame;
  typed?: ModerationTyped | undefined;
  moderatorOnly: boolean;
}) {
  const { item, frame } = props;
  const m = words(frame).moderation;
  const heading = `review-${item.id}`;
  return (
    <li class="review-item">
      <article aria-labelledby={heading}>
        <h2 id={heading}>{m.item(item.kind, item.target_type, item.id)}</h2>
        <ReviewedPost item={item} frame={frame} />
        {item.flags.length > 0 ? (
          <section class="flags" aria-label={m.flags}>
            <ul>
              {item.flags.map((flag) => (
                <li>
                  <Person login={flag.user.login} />: <strong>{m.flagReasons[flag.reason]}</strong>
                  {flag.message ? ` — ${flag.message}` : null} ·{' '}
                  <span class="muted">
                    <Time iso={flag.created_at} frame={frame} />
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {item.status === 'pending' && props.csrf ? (
          <Resolve item={item} csrf={props.csrf} frame={frame} typed={props.typed} moderatorOnly={props.moderatorOnly} />
        ) : item.resolution ? (
          <p class="resolution">
            <strong>{m.resolutions[item.resolution]}</strong>
            {item.resolved_by ? (
              <>
                {' · '}
                <Person login={item.resolved_by.login} />
              </>
            ) : null}
            {' · '}
            <span class="muted">
              <Time iso={item.resolved_at} frame={frame} />
            </span>
          </p>
        ) : null}
      </article>
    </li>
  );
}

/**
 * The review queue: pending items oldest first (or resolved ones), paged, each with its actions. `moderatorOnly`: the
 * reader is a node's moderator, whose queue holds the items of posts in the nodes they moderate (contract §23).
 */
export function ReviewQueuePage(props: {
  frame: ForumFrame;
  status: 'pending' | 'resolved';
  items: ReviewItem[];
  page: number;
  hasNext: boolean;
  moderatorOnly: boolean;
  /** A refused resolution: what was refused, of which item, and what was typed into its form. */
  refused?: ModerationRefusal & { itemId: number };
}) {
  const { frame, status, refused } = props;
  const m = words(frame).moderation;
  const path = status === 'pending' ? '/admin/review' : '/admin/review?status=resolved';
  return (
    <ForumPage frame={frame} title={m.reviewQueue}>
      <h1>{m.reviewQueue}</h1>
      {props.moderatorOnly ? <p class="muted">{m.moderatedScope}</p> : null}
      <nav class="tabs" aria-label={m.statusLabel}>
        <a href="/admin/review" aria-current={status === 'pending' ? 'page' : undefined}>
          {m.pending}
        </a>
        <a href="/admin/review?status=resolved" aria-current={status === 'resolved' ? 'page' : undefined}>
          {m.resolved}
        </a>
      </nav>
      <Alert message={refused ? m.itemRefused(refused.itemId, refused.message) : undefined} />
      {props.items.length === 0 ? (
        <p class="muted">{status === 'pending' ? m.noPending : m.noResolved}</p>
      ) : (
        <ol class="review-items">
          {props.items.map((item) => (
            <ReviewEntry
              item={item}
              csrf={frame.reader.csrf}
              frame={frame}
              typed={refused?.itemId === item.id ? refused.typed : undefined}
              moderatorOnly={props.moderatorOnly}
            />
          ))}
        </ol>
      )}
      <Pager frame={frame} page={props.page} hasNext={props.hasNext} path={path} />
    </ForumPage>
  );
}
