import { createHash } from 'node:crypto';

/**
 * The pages' style: small, laid out for a phone first, in a light and a dark theme (the reader's
 * prefers-color-scheme), each with its own background: a page left on the browser's canvas is dark to the eye but
 * white to axe-core, whose contrast check would then pass what a dark theme shows badly. The account and OAuth pages
 * carry STYLE inline, allowed by its hash in their Content-Security-Policy (its text goes into the page exactly as it
 * is here, as the hash is of these bytes); the forum's pages link STYLESHEET (STYLE and FORUM_STYLE), served from our
 * own origin.
 */

export const STYLE = `
:root { color-scheme: light dark; --accent: #2563eb; --line: #d4d4d8; --muted: #71717a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC",
  "PingFang SC", "Microsoft YaHei", sans-serif; }
main { max-width: 26rem; margin: 0 auto; padding: 2rem 1.25rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 .75rem; }
p { margin: 0 0 1rem; }
a { color: var(--accent); }
.site { color: var(--muted); font-size: .875rem; margin-bottom: 1.5rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
label small { font-weight: 400; color: var(--muted); }
input[type=text], input[type=email], input[type=password], input[type=url], textarea, select { width: 100%; font: inherit;
  padding: .625rem .75rem; border: 1px solid var(--line); border-radius: .5rem; background: transparent; color: inherit; }
textarea { min-height: 6rem; resize: vertical; }
select option { color: initial; }
label.check { display: flex; gap: .625rem; align-items: center; font-weight: 400; }
label.check input { margin: 0; flex: none; width: 1.25rem; height: 1.25rem; accent-color: var(--accent); }
h2 { font-size: 1.125rem; margin: 2rem 0 .25rem; padding-top: 1.5rem; border-top: 1px solid var(--line); }
button.danger { background: #dc2626; border-color: #dc2626; }
button { font: inherit; font-weight: 600; width: 100%; padding: .75rem; margin-top: 1rem; border-radius: .5rem; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: #fff; }
button.secondary { background: transparent; color: inherit; border-color: var(--line); }
button.link { width: auto; padding: 0; margin: 0; border: 0; background: none; color: var(--accent); font-weight: 400;
  text-decoration: underline; }
.alert { border: 1px solid #dc2626; border-radius: .5rem; padding: .75rem; margin: 0 0 1rem; }
.notice { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; margin: 0 0 1rem; }
.scope { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 1rem; }
.scope strong { display: block; }
.muted { color: var(--muted); font-size: .875rem; }
.hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
form + .muted, form + form > .muted, form + p { margin-top: 1rem; }
/* Other providers' buttons (links that start a flow): secondary buttons below the form's own. */
.providers { margin-top: 1.5rem; }
.providers p { margin: 0; }
.providers ul { list-style: none; margin: .5rem 0 0; padding: 0; }
.providers li + li { margin-top: .5rem; }
.providers + p { margin-top: 1rem; }
a.button { display: block; text-align: center; font-weight: 600; padding: .75rem; border: 1px solid var(--line);
  border-radius: .5rem; color: inherit; text-decoration: none; }
a.button:hover { border-color: var(--accent); }
.row { display: flex; gap: .75rem; }
.row button { flex: 1; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.languages { margin-top: 2rem; border-top: 1px solid var(--line); padding-top: 1rem; }
.languages a { margin-right: 1rem; }
code { font-size: .875em; overflow-wrap: anywhere; }
body { background: #fff; color: #18181b; }
@media (prefers-color-scheme: dark) {
  :root { --accent: #60a5fa; --line: #3f3f46; --muted: #a1a1aa; }
  body { background: #18181b; color: #e4e4e7; }
  button:not(.secondary, .link, .danger) { color: #09090b; }
}
`;

/**
 * What the forum's pages (contract §21a) add to it: a wider column, the header with its menu and search, lists of
 * topics and replies, posts' bodies (their images and code kept inside the column: code wraps rather than scrolls,
 * as a scrolled box needs a keyboard focus that the sanitized body_html cannot give it), and what its dark theme
 * adds to STYLE's. Small, no framework, no fonts.
 */
export const FORUM_STYLE = `
body.forum { --quote: #52525b; }
body.forum main { max-width: 48rem; padding: 1rem 1rem 2rem; overflow-wrap: break-word; }
.top { max-width: 48rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem;
  align-items: center; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: inherit; }
.top nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.top form.search { display: flex; gap: .5rem; flex: 1 1 14rem; }
input[type=search] { width: 100%; min-width: 0; font: inherit; padding: .5rem .75rem; border: 1px solid var(--line);
  border-radius: .5rem; background: transparent; color: inherit; }
.top form.search input { padding: .375rem .625rem; }
.top form.search button, .search-page button { width: auto; flex: none; margin: 0; padding: .375rem .875rem; }
.search-page { margin-bottom: 1.5rem; }
.search-page label { margin-top: 0; }
.search-page .field { display: flex; gap: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.bottom { max-width: 48rem; margin: 0 auto; padding: 1rem; border-top: 1px solid var(--line); }
.bottom a { margin-right: 1rem; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.tabs { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 1rem; border-bottom: 1px solid var(--line);
  padding-bottom: .5rem; }
.tabs a[aria-current=page] { font-weight: 700; color: inherit; text-decoration: none; }
main > h1 + section > h2:first-child { margin-top: 1rem; padding-top: 0; border-top: 0; }
ol.topics, ol.replies, ul.nodes, ul.people { list-style: none; margin: 0; padding: 0; }
.topic { padding: .625rem 0; border-bottom: 1px solid var(--line); }
.topic .title { font-weight: 600; text-decoration: none; }
.topic .title:hover { text-decoration: underline; }
.mark { display: inline-block; white-space: nowrap; font-size: .75rem; line-height: 1.4; border: 1px solid var(--line);
  border-radius: .25rem; padding: 0 .375rem; vertical-align: .125em; }
.new-count { display: inline-block; white-space: nowrap; min-width: 24px; padding: 0 .5rem; border-radius: .75rem;
  font-size: .75rem; font-weight: 700; line-height: 24px; text-align: center; text-decoration: none;
  background: var(--accent); color: #fff; }
.new-count:hover { text-decoration: underline; }
body.forum h3.new-replies { display: flex; align-items: center; gap: .75rem; margin: .5rem 0; font-size: .8125rem;
  color: var(--accent); }
.new-replies::before, .new-replies::after { content: ""; flex: 1; border-top: 2px solid var(--accent); }
.about { margin: .125rem 0; }
.post { margin-bottom: 1.5rem; }
.post > .about { margin-bottom: 1rem; }
.reply { padding: .75rem 0; border-bottom: 1px solid var(--line); }
.reply > .about { margin-bottom: .25rem; }
.event { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.reply-cta { margin-top: 1rem; }
.body { overflow-wrap: anywhere; }
.body > :first-child { margin-top: 0; }
.body > :last-child { margin-bottom: 0; }
.body h1, .body h2, .body h3, .body h4, .body h5, .body h6 { font-size: 1.0625rem; margin: 1.25rem 0 .5rem; padding: 0;
  border: 0; }
.body h1 { font-size: 1.25rem; }
.body h2 { font-size: 1.125rem; }
.body ul, .body ol { padding-left: 1.5rem; margin: 0 0 1rem; }
.body img, .body video { max-width: 100%; height: auto; }
.body code { font-size: .875em; padding: .0625rem .25rem; border-radius: .25rem; background: rgba(127, 127, 127, .14); }
.body pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: .875rem; line-height: 1.45; margin: 0 0 1rem;
  padding: .75rem; border: 1px solid var(--line); border-radius: .5rem; background: rgba(127, 127, 127, .08); }
.body pre code { padding: 0; background: none; font-size: inherit; }
.body blockquote { margin: 0 0 1rem; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--quote); }
.body table { border-collapse: collapse; margin: 0 0 1rem; }
.body th, .body td { border: 1px solid var(--line); padding: .25rem .625rem; text-align: left; }
.pager { display: flex; gap: 1rem; justify-content: center; align-items: center; margin: 1.5rem 0; }
.pager a { padding: .375rem .75rem; border: 1px solid var(--line); border-radius: .5rem; text-decoration: none; }
.nodes li, .people li { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.people li { display: flex; gap: .5rem; align-items: center; }
.people img, .profile img { border-radius: 50%; flex: none; }
.profile { display: flex; gap: 1rem; align-items: flex-start; margin-bottom: 1rem; }
.profile > div { min-width: 0; }
.profile h1 { margin: 0; }
.profile p { margin: .25rem 0 0; }
.excerpt { margin: .25rem 0 0; }
mark { background: #fde68a; color: #000; }
.acts { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0 0; }
.act button { width: auto; margin: 0; padding: .375rem .875rem; font-weight: 400; }
.act button[aria-pressed=true] { border-color: var(--accent); font-weight: 600; }
.act-link { display: inline-block; padding: .375rem .875rem; border: 1px solid var(--line); border-radius: .5rem;
  text-decoration: none; }
.act-link:hover { text-decoration: underline; }
.taking-part { margin: 0 0 1rem; }
.people-panel .field { display: flex; gap: .5rem; }
.people-panel .field input { flex: 1; min-width: 0; }
.people-panel .field button { width: auto; margin: 0; flex: none; padding: .375rem .875rem; font-weight: 400; }
.people-panel .acts { margin-top: 1.25rem; }
ol.notifications { list-style: none; margin: 0; padding: 0; }
.notification { padding: .75rem 0; border-bottom: 1px solid var(--line); }
.notification.unread { border-left: 3px solid var(--accent); padding-left: .75rem; }
.notification .act { margin-top: .5rem; }
.act.clear { margin-top: 1rem; }
.post-acts { margin: .5rem 0 0; font-size: .875rem; }
.post-acts summary { cursor: pointer; color: var(--muted); width: max-content; min-height: 24px; padding: .25rem 0; }
.post-acts .links a { display: inline-block; min-width: 24px; min-height: 24px; padding: .25rem 0; margin-right: 1rem; }
.post-acts form { max-width: 24rem; }
.post-acts button { width: auto; margin-top: .5rem; padding: .375rem .875rem; font-weight: 400; }
.reply-form { margin-top: 1.5rem; }
.reply-form textarea { min-height: 8rem; }
.preview { border: 1px dashed var(--line); border-radius: .5rem; padding: .75rem; margin: 0 0 1rem; }
.preview h2 { border-top: 0; padding-top: 0; margin: .25rem 0 .5rem; }
.count { display: inline-block; min-width: 1.25rem; margin-left: .25rem; padding: 0 .375rem; border-radius: .625rem;
  background: var(--accent); color: #fff; font-size: .75rem; font-weight: 700; text-align: center; }
@media (min-width: 40rem) {
  .top form.search { max-width: 22rem; margin-left: auto; }
}
@media (prefers-color-scheme: dark) {
  body.forum { --quote: #a1a1aa; }
  .new-count { color: #09090b; }
}
.moderation { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem 1rem; margin: 1.5rem 0; }
body.forum .moderation h2, body.forum .standing h2 { margin: 0; padding: 0; border: 0; font-size: 1rem; }
.standing { margin: 1.5rem 0 0; }
.moderation label { margin-top: .75rem; }
.moderation .acts button, .resolve .acts button, .moderation .field button { width: auto; margin: 0; flex: none;
  padding: .375rem .875rem; font-weight: 400; }
.moderation .field { display: flex; gap: .5rem; }
.moderation .field select { flex: 1; min-width: 0; }
.moderation .links { margin: .75rem 0 0; }
input[type=number] { width: 8rem; font: inherit; padding: .625rem .75rem; border: 1px solid var(--line);
  border-radius: .5rem; background: transparent; color: inherit; }
select:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
body.forum button.danger { background: transparent; color: #b91c1c; border-color: #b91c1c; }
ol.review-items { list-style: none; margin: 0; padding: 0; }
.review-item { padding: 1rem 0; border-bottom: 1px solid var(--line); }
body.forum .review-item h2 { margin: 0 0 .25rem; padding: 0; border: 0; font-size: 1rem; }
.reviewed .body { margin: .5rem 0; padding: .25rem 0 .25rem .75rem; border-left: 3px solid var(--line); }
.flags ul, .standing ul { margin: .5rem 0; padding-left: 1.25rem; }
.resolve label { margin-top: .5rem; font-size: .875rem; }
.resolve .acts { margin-top: .75rem; }
.resolution { margin: .5rem 0 0; }
@media (min-width: 40rem) {
  .resolve .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 0 1rem; }
}
@media (prefers-color-scheme: dark) {
  body.forum button.danger { color: #fca5a5; border-color: #fca5a5; }
}
`;

/** For the Content-Security-Policy of the account pages: their inline style sheet, by its digest. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The forum pages' one style sheet, linked (not inline: it is half a list page's bytes, and a browser keeps it for
 * good); served from memory under a URL that names its digest.
 */
export const STYLESHEET = `${STYLE}${FORUM_STYLE}`;
export const STYLESHEET_PATH = `/assets/forum-${createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 16)}.css`;
