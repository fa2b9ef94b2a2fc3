import { type ForumWords, WORDS } from '../../presentation/words/index.js';
import { DraftNotes, type ForumFrame, ForumPage, type Node, PostBody } from './forum.js';
import { CsrfField } from './layout.js';

/**
 * The forms of writing (contract §21b) that have a page of their own: a new topic. What is typed comes back as it
 * was typed when the core refuses it or a preview is asked for; the preview is the server's own rendering.
 */

const words = (frame: ForumFrame): ForumWords => WORDS[frame.locale].forum;

/** The new topic form as it stands. */
export interface TopicDraft {
  nodeId: string;
  title: string;
  body: string;
  error?: string;
  preview?: string;
}

/**
 * A topic's form: a new one (posted to /topics), or one's own edited (`editing`: posted to its edit path), with the
 * nodes the writer may put it in. No form where it would only be refused: `refused` says why instead (the node chosen
 * does not let them start topics), and a page with no node to offer says so.
 */
export function TopicFormPage(props: {
  frame: ForumFrame;
  csrf: string;
  nodes: Node[];
  draft?: TopicDraft;
  editing?: { id: number };
  refused?: string;
}) {
  const { frame, draft, editing } = props;
  const t = words(frame);
  const heading = editing ? t.editTopic : t.newTopic;
  // A refused form keeps its words and what was typed, nodes or not.
  if (props.refused || (props.nodes.length === 0 && !draft)) {
    return (
      <ForumPage frame={frame} title={heading}>
        <h1>{heading}</h1>
        <p class="notice" role="status">
          {props.refused ?? t.noTopicNodes}
        </p>
        {props.refused && props.nodes.length > 0 ? (
          <p>
            <a href="/topics/new">{t.otherTopicNodes}</a>
          </p>
        ) : null}
      </ForumPage>
    );
  }
  return (
    <ForumPage frame={frame} title={heading}>
      <h1>{heading}</h1>
      <form
        method="post"
        action={editing ? `/topics/${editing.id}/edit` : '/topics'}
        enctype="multipart/form-data"
        class="topic-form"
      >
        <DraftNotes error={draft?.error} preview={draft?.preview} title={draft?.title ?? ''} frame={frame} />
        <CsrfField csrf={props.csrf} />
        <label for="topic-node">{t.node}</label>
        <select id="topic-node" name="node_id" required>
          <option value="">{t.chooseNode}</option>
          {props.nodes.map((node) => (
            <option value={String(node.id)} selected={draft?.nodeId === String(node.id)}>
              {node.name}
            </option>
          ))}
        </select>
        <label for="topic-title">{t.title}</label>
        <input type="text" id="topic-title" name="title" value={draft?.title ?? ''} maxlength={255} required />
        <PostBody
          id="topic-body"
          label={t.body}
          body={draft?.body ?? ''}
          rows={12}
          submit={editing ? t.saveButton : t.publishButton}
          frame={frame}
        />
      </form>
    </ForumPage>
  );
}

/** A reply of one's own, edited: its Markdown, a preview, the API's refusal (a closed topic) said above it. */
export function EditReplyPage(props: {
  frame: ForumFrame;
  csrf: string;
  action: string;
  topic: { id: number; title: string };
  draft: { body: string; error?: string; preview?: string };
}) {
  const { frame, draft } = props;
  const t = words(frame);
  return (
    <ForumPage frame={frame} title={t.editReply}>
      <h1>{t.editReply}</h1>
      <p class="muted">
        <a href={`/topics/${props.topic.id}`}>{props.topic.title}</a>
      </p>
      <form method="post" action={props.action} enctype="multipart/form-data" class="topic-form">
        <DraftNotes error={draft.error} preview={draft.preview} frame={frame} />
        <CsrfField csrf={props.csrf} />
        <PostBody id="reply-body" label={t.yourReply} body={draft.body} rows={10} submit={t.saveButton} frame={frame} />
      </form>
    </ForumPage>
  );
}
