import type { z } from 'zod';
import type { ConversationDetailSchema, ConversationSchema } from '../../presentation/schemas.js';
import { type ForumWords, type MessageWords, WORDS } from '../../presentation/words/index.js';
import {
  Act,
  Body,
  DraftNotes,
  type ForumFrame,
  ForumPage,
  Pager,
  Person,
  PostBody,
  type Reply,
  type ReplyDraft,
  ReplyForm,
  ReplyItem,
  Time,
} from './forum.js';
import { Alert, CsrfField } from './layout.js';

/**
 * Private messages in a browser (contract §24): the reader's conversations, one conversation with its messages and
 * its forms, and the new message form. What they show is what the API shows the same participant (the wire's shapes);
 * whether the reader may see a conversation at all was decided by the use cases before any of this is called.
 */

export type Conversation = z.infer<typeof ConversationSchema>;
export type ConversationDetail = z.infer<typeof ConversationDetailSchema>;

const forumWords = (frame: ForumFrame): ForumWords => WORDS[frame.locale].forum;
const words = (frame: ForumFrame): MessageWords => WORDS[frame.locale].messages;

/** Who takes part: the people named in it as links to their profiles, then the groups whose members take part. */
function TakingPart(props: { conversation: Conversation; frame: ForumFrame }) {
  const { conversation, frame } = props;
  const m = words(frame);
  const names = [
    ...conversation.participants.map((user) => <Person login={user.login} />),
    ...conversation.groups.map((group) => <span>{m.group(group.name)}</span>),
  ];
  return (
    <>
      {m.takingPart}{' '}
      {names.map((name, i) => (
        <>
          {i > 0 ? ', ' : null}
          {name}
        </>
      ))}
    </>
  );
}

/** One conversation in the list: its title, what the reader has yet to read in it, who takes part, its last activity. */
function ConversationItem(props: { conversation: Conversation; frame: ForumFrame }) {
  const { conversation, frame } = props;
  const t = forumWords(frame);
  const m = words(frame);
  const unread = conversation.unread_replies_count;
  return (
    <li class="topic conversation">
      <a class="title" href={`/messages/${conversation.id}`}>
        {conversation.title}
      </a>
      {unread > 0 ? (
        <>
          {' '}
          <span class="new-count">{t.newReplies(unread)}</span>
        </>
      ) : null}
      <div class="about muted">
        <TakingPart conversation={conversation} frame={frame} /> ·{' '}
        {conversation.last_reply_user_login ? (
          <>
            {m.lastMessageBy} <Person login={conversation.last_reply_user_login} />{' '}
            <Time iso={conversation.replied_at} frame={frame} />
          </>
        ) : (
          <Time iso={conversation.created_at} frame={frame} />
        )}
        {' · '}
        {t.repliesCount(conversation.replies_count)}
      </div>
    </li>
  );
}

/** `/messages`: the reader's conversations, newest activity first, with the way to start one. */
export function ConversationsPage(props: { frame: ForumFrame; conversations: Conversation[]; page: number; hasNext: boolean }) {
  const { frame } = props;
  const m = words(frame);
  return (
    <ForumPage frame={frame} title={m.title}>
      <h1>{m.title}</h1>
      <p>
        <a class="act-link" href="/messages/new">
          {m.newMessage}
        </a>
      </p>
      {props.conversations.length === 0 ? (
        <p class="muted">{m.none}</p>
      ) : (
        <ol class="topics conversations">
          {props.conversations.map((conversation) => (
            <ConversationItem conversation={conversation} frame={frame} />
          ))}
        </ol>
      )}
      <Pager frame={frame} page={props.page} hasNext={props.hasNext} path="/messages" />
    </ForumPage>
  );
}

/** The new message form as it stands: what was typed, a refusal, a preview. */
export interface MessageDraft {
  to: string;
  title: string;
  body: string;
  error?: string;
  preview?: string;
}

/** `/messages/new`: to whom (logins and group names), a title and a Markdown message, as the new topic form has them. */
export function NewMessagePage(props: { frame: ForumFrame; csrf: string; draft: MessageDraft }) {
  const { frame, draft } = props;
  const t = forumWords(frame);
  const m = words(frame);
  return (
    <ForumPage frame={frame} title={m.newMessage}>
      <h1>{m.newMessage}</h1>
      <form method="post" action="/messages" enctype="multipart/form-data" class="topic-form">
        <DraftNotes error={draft.error} preview={draft.preview} title={draft.title} frame={frame} />
        <CsrfField csrf={props.csrf} />
        <label for="message-to">{m.to}</label>
        <input
          type="text"
          id="message-to"
          name="to"
          value={draft.to}
          autocapitalize="none"
          spellcheck={false}
          aria-describedby="message-to-hint"
          required
        />
        <p class="hint" id="message-to-hint">
          {m.toHint}
        </p>
        <label for="message-title">{t.title}</label>
        <input type="text" id="message-title" name="title" value={draft.title} maxlength={255} required />
        <PostBody id="message-body" label={m.message} body={draft.body} rows={10} submit={m.sendButton} frame={frame} />
      </form>
    </ForumPage>
  );
}

/** What the conversation page's forms had in them when the core refused them (or a preview of the reply). */
export interface ConversationForms {
  reply?: ReplyDraft;
  /** The add-people form: the names typed, and why they were refused. */
  adding?: { to: string; error: string };
}

/** Adding people (any participant may), and leaving: the conversation's own panel. */
function PeoplePanel(props: { id: number; csrf: string; adding: ConversationForms['adding']; frame: ForumFrame }) {
  const { id, csrf, adding, frame } = props;
  const m = words(frame);
  return (
    <section class="people-panel" aria-labelledby="people">
      <h2 id="people">{m.people}</h2>
      <form method="post" action={`/messages/${id}/participants#people`} class="add-people">
        <Alert message={adding?.error} />
        <CsrfField csrf={csrf} />
        <label for="add-to">{m.addPeople}</label>
        <div class="field">
          <input
            type="text"
            id="add-to"
            name="to"
            value={adding?.to ?? ''}
            autocapitalize="none"
            spellcheck={false}
            aria-describedby="add-to-hint"
            required
          />
          <button type="submit" class="secondary">
            {m.addButton}
          </button>
        </div>
        <p class="hint" id="add-to-hint">
          {m.toHint}
        </p>
      </form>
      <div class="acts">
        <Act action={`/messages/${id}/leave`} csrf={csrf} label={m.leaveButton} />
      </div>
      <p class="hint">{m.leaveHint}</p>
    </section>
  );
}

/**
 * `/messages/:id`: the conversation's title and who takes part, its opening message, a page of its messages (as a
 * topic's replies, by floor), the reply form, and the panel to add people or leave.
 */
export function ConversationPage(props: {
  frame: ForumFrame;
  csrf: string;
  conversation: ConversationDetail;
  replies: Reply[];
  firstFloor: number;
  page: number;
  hasNext: boolean;
  forms?: ConversationForms;
}) {
  const { frame, conversation, csrf } = props;
  const t = forumWords(frame);
  const m = words(frame);
  return (
    <ForumPage frame={frame} title={conversation.title}>
      <p class="muted">
        <a href="/messages">{m.title}</a>
      </p>
      <article class="post">
        <h1>{conversation.title}</h1>
        <div class="about muted">
          <Person login={conversation.user.login} /> · <Time iso={conversation.created_at} frame={frame} />
        </div>
        <p class="muted taking-part">
          <TakingPart conversation={conversation} frame={frame} />
        </p>
        <Body html={conversation.body_html} />
      </article>
      <section aria-labelledby="replies">
        <h2 id="replies">
          {t.replies} <span class="muted">({conversation.replies_count})</span>
        </h2>
        {props.replies.length === 0 && props.page === 1 ? (
          <p class="muted">{t.noReplies}</p>
        ) : (
          <ol class="replies">
            {props.replies.map((reply, i) => (
              <ReplyItem reply={reply} floor={props.firstFloor + i} frame={frame} topicId={null} />
            ))}
          </ol>
        )}
        <Pager frame={frame} page={props.page} hasNext={props.hasNext} path={`/messages/${conversation.id}`} />
        <ReplyForm
          action={`/messages/${conversation.id}/replies`}
          csrf={csrf}
          draft={props.forms?.reply}
          frame={frame}
          submit={m.sendButton}
        />
      </section>
      <PeoplePanel id={conversation.id} csrf={csrf} adding={props.forms?.adding} frame={frame} />
    </ForumPage>
  );
}
