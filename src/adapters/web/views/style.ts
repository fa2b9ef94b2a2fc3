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

/** For the Content-Security-Policy: the one inline style sheet, by its digest. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
