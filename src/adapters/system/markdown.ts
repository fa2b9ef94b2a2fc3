import { createRequire } from 'node:module';
import type MarkdownItModule from 'markdown-it';
import type SanitizeHtml from 'sanitize-html';
import type { MarkdownRenderer, RenderedMarkdown } from '../../application/ports.js';

/**
 * A reference to a reply of the same topic by its floor, as homeland's posts write it: `#3楼`, `#3F`, `#3f` (not
 * inside a word or a longer number).
 */
const FLOOR = /(?<![A-Za-z0-9_&#])#(\d{1,6})([楼Ff])(?![A-Za-z0-9_])/g;

/** The floor as a link to its anchor on the topic's page (contract §21a: `#reply<n>`), as homeland renders it. */
const floorLink = (floor: string, mark: string) =>
  `<a href="#reply${Number(floor)}" class="at_floor" data-floor="${Number(floor)}">#${floor}${mark}</a>`;

/** `@login` preceded by nothing that makes it part of a word, an e-mail address or a path. */
const MENTION = /(?:^|[^A-Za-z0-9_.@/-])@([A-Za-z0-9_.-]{2,20})/g;

/** Elements that raw HTML in a body may use (contract §5); Markdown's own output stays within them, plus `s`. */
const ALLOWED_TAGS = (
  'p br img h1 h2 h3 h4 h5 h6 blockquote pre code b i del strong em table thead tbody tr td th strike u a ul ol li span hr' +
  // Markdown's own ~~strikethrough~~.
  ' s'
).split(' ');

/**
 * Markdown as homeland renders it: a single newline is a line break, bare URLs are links, fenced code keeps its
 * language as a class, tables render, and raw HTML is allowed (clients send HTML they rendered themselves).
 * Then sanitize-html keeps only the allow-list of contract §5: no script, iframe or style element, no style or
 * event attribute, no `javascript:` or `data:` URL. A disallowed element is dropped and its text stays (the
 * text of script and style goes with them). Last, `@mentions` in the text of what is left, Markdown and raw HTML
 * alike, outside links and code, become links and are collected (linkMentions).
 */
export class SanitizingMarkdownRenderer implements MarkdownRenderer {
  /** markdown-it and sanitize-html, set up at the first render: a process that renders nothing does not load them. */
  private engine: { render: (markdown: string) => string } | null = null;

  render(markdown: string): RenderedMarkdown {
    this.engine ??= renderingEngine();
    return linkMentions(this.engine.render(markdown).trimEnd());
  }
}

/** Markdown to sanitized HTML: markdown-it, then sanitize-html's allow-list. */
function renderingEngine(): { render: (markdown: string) => string } {
  const require = createRequire(import.meta.url);
  const MarkdownIt = require('markdown-it') as typeof MarkdownItModule;
  const sanitizeHtml = require('sanitize-html') as typeof SanitizeHtml;
  const markdown = new MarkdownIt({ html: true, linkify: true, breaks: true });
  const options: SanitizeHtml.IOptions = {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {
      '*': ['class', 'id', 'lang', 'title'],
      a: ['href', 'rel', 'target', 'data-floor'],
      img: ['src', 'alt', 'width', 'height'],
      ol: ['start'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowedSchemesAppliedToAttributes: ['href', 'src'],
    allowProtocolRelative: false,
    // Links leave with rel="nofollow noopener", whatever the body said (target="_blank" cannot reach back).
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
  };
  // Table alignment as a class (text-left, text-center, text-right): style attributes never survive.
  for (const rule of ['th_open', 'td_open'] as const) {
    markdown.renderer.rules[rule] = (tokens, index, renderOptions, _env, renderer) => {
      const token = tokens[index]!;
      const align = /text-align:(left|right|center)/.exec(String(token.attrGet('style') ?? ''))?.[1];
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) token.attrJoin('class', `text-${align}`);
      return renderer.renderToken(tokens, index, renderOptions);
    };
  }
  return { render: (text) => sanitizeHtml(markdown.render(text), options) };
}

/** Elements whose text never mentions anyone (contract §6): code spans, code blocks and links. */
const NO_MENTIONS = new Set(['a', 'code', 'pre']);

/** A link to elsewhere, in an `a` tag of sanitized HTML (which quotes every attribute value with `"`). */
const EXTERNAL_HREF = /\shref="https?:/i;

/** A tag of sanitized HTML: its closing slash and its name. */
const TAG = /^<(\/?)([A-Za-z][A-Za-z0-9]*)/;

/**
 * Mentions in sanitized HTML become links (`<a href="/login" class="user-mention">@login</a>`, as homeland renders
 * them and clients look for, with the rel every link leaves with) and are collected, in order, for notifications:
 * in the text of Markdown and of allow-listed raw HTML alike (clients post HTML they rendered themselves), never
 * inside `a`, `code` or `pre`. The links to elsewhere are counted on the way (mentions are not among them).
 * sanitize-html's output escapes `<` in text and attribute values, so every `<` in it
 * opens a tag, and it drops comments; the allow-listed elements that have no end tag (`br`, `hr`, `img`) hold no text.
 */
export function linkMentions(html: string): RenderedMarkdown {
  const mentions: string[] = [];
  let links = 0;
  const open = new Map<string, number>();
  let inside = 0;
  const parts = html.split(/(<[^>]*>)/);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 1) {
      const tag = TAG.exec(part);
      const name = tag?.[2]!.toLowerCase();
      if (name === 'a' && tag![1] === '' && EXTERNAL_HREF.test(part)) links++;
      if (!tag || !name || !NO_MENTIONS.has(name) || part.endsWith('/>')) continue;
      const depth = open.get(name) ?? 0;
      if (tag[1] === '/') {
        if (depth > 0) {
          open.set(name, depth - 1);
          inside--;
        }
      } else {
        open.set(name, depth + 1);
        inside++;
      }
      continue;
    }
    if (inside > 0 || (!part.includes('@') && !part.includes('#'))) continue;
    parts[i] = part
      .replace(FLOOR, (_match: string, floor: string, mark: string) => floorLink(floor, mark))
      .replace(MENTION, (match: string) => {
        const at = match.indexOf('@');
        const login = match.slice(at + 1).replace(/[.-]+$/, '');
        if (login.length < 2) return match;
        mentions.push(login);
        const rest = match.slice(at + 1 + login.length);
        return `${match.slice(0, at)}<a href="/${login}" class="user-mention" rel="nofollow noopener">@${login}</a>${rest}`;
      });
  }
  return { html: parts.join(''), mentions, links };
}
