import { createHash } from 'node:crypto';

/**
 * The pages' one style sheet: small, inline, laid out for a phone first, allowed by its hash in the
 * Content-Security-Policy (no other style, no script). Its text goes into the page exactly as it is here, as the
 * hash is of these bytes.
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
.row { display: flex; gap: .75rem; }
.row button { flex: 1; }
.trap { position: absolute; left: -10000px; width: 1px; height: 1px; overflow: hidden; }
.languages { margin-top: 2rem; border-top: 1px solid var(--line); padding-top: 1rem; }
.languages a { margin-right: 1rem; }
code { font-size: .875em; overflow-wrap: anywhere; }
`;

/**
 * What the forum's pages (contract §21a) add to it: a wider column, the header with its menu and search, lists of
 * topics and replies, posts' bodies (their images and code kept inside the column). Small, no framework, no fonts.
 */
export const FORUM_STYLE = `
body.forum main { max-width: 48rem; padding: 1rem 1rem 2rem; }
.top { max-width: 48rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem;
  align-items: center; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; text-decoration: none; color: inherit; }
.top nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.top form.search { display: flex; gap: .5rem; flex: 1 1 12rem; }
.top form.search input { padding: .375rem .625rem; }
.top form.search button { width: auto; margin: 0; padding: .375rem .75rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.bottom { max-width: 48rem; margin: 0 auto; padding: 1rem; border-top: 1px solid var(--line); }
.bottom a { margin-right: 1rem; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.tabs { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0 0 1rem; border-bottom: 1px solid var(--line);
  padding-bottom: .5rem; }
.tabs a[aria-current=page] { font-weight: 700; color: inherit; text-decoration: none; }
ol.topics, ol.replies, ul.nodes, ul.people { list-style: none; margin: 0; padding: 0; }
.topic { padding: .625rem 0; border-bottom: 1px solid var(--line); }
.topic .title { font-weight: 600; text-decoration: none; }
.topic .title:hover { text-decoration: underline; }
.mark { font-size: .75rem; border: 1px solid var(--line); border-radius: .25rem; padding: 0 .375rem; margin-left: .5rem; }
.about { margin: .125rem 0; }
.post { margin-bottom: 1.5rem; }
.reply { padding: .75rem 0; border-bottom: 1px solid var(--line); }
.event { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.body { overflow-wrap: anywhere; }
.body img, .body video { max-width: 100%; height: auto; }
.body pre { overflow-x: auto; padding: .75rem; border: 1px solid var(--line); border-radius: .5rem; }
.body blockquote { margin: 0 0 1rem; padding-left: 1rem; border-left: 3px solid var(--line); color: var(--muted); }
.pager { display: flex; gap: 1rem; justify-content: center; margin: 1.5rem 0; }
.nodes li, .people li { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.people li { display: flex; gap: .5rem; align-items: center; }
.people img, .profile img { border-radius: 50%; }
.profile { display: flex; gap: 1rem; align-items: flex-start; margin-bottom: 1rem; }
.profile h1 { margin: 0; }
.excerpt { margin: .25rem 0 0; }
mark { background: #fde68a; color: #000; }
`;

/** For the Content-Security-Policy: our inline style sheets, by their digests. */
export const STYLE_SOURCE = [STYLE, FORUM_STYLE]
  .map((sheet) => `'sha256-${createHash('sha256').update(sheet).digest('base64')}'`)
  .join(' ');
