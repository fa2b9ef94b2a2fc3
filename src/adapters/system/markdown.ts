import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { MarkdownRenderer, RenderedMarkdown } from '../../application/ports.js';

/** `@login` preceded by nothing that makes it part of a word, an e-mail address or a path. */
const MENTION = /(?:^|[^A-Za-z0-9_.@/-])@([A-Za-z0-9_.-]{2,20})/g;

/**
 * markdown-it with raw HTML off (its link validation already refuses `javascript:` and friends), then
 * sanitize-html as a second wall: only the tags Markdown produces, only safe URL schemes, no event attributes.
 * A core rule collects `@mentions` from text tokens outside links; code spans and blocks are not text tokens.
 */
export class SanitizingMarkdownRenderer implements MarkdownRenderer {
  private readonly markdown = new MarkdownIt({ html: false, linkify: true, breaks: false });

  private readonly sanitizeOptions: sanitizeHtml.IOptions = {
    allowedTags: [
      'p',
      'br',
      'hr',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'pre',
      'code',
      'em',
      'strong',
      's',
      'del',
      'ul',
      'ol',
      'li',
      'a',
      'img',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ],
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'class'],
      img: ['src', 'alt', 'title'],
      code: ['class'],
      ol: ['start'],
      th: ['style'],
      td: ['style'],
    },
    allowedClasses: { code: [/^language-[\w-]+$/], a: ['user-mention'] },
    allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
  };

  constructor() {
    // Mentions become links (`<a href="/login" class="user-mention">@login</a>`, as homeland renders them, which
    // clients look for) and are collected for notifications.
    this.markdown.core.ruler.push('mentions', (state) => {
      const env = state.env as { mentions?: string[] };
      const mentions = (env.mentions ??= []);
      for (const block of state.tokens) {
        if (block.type !== 'inline' || !block.children) continue;
        let linkDepth = 0;
        const children = [];
        for (const token of block.children) {
          if (token.type === 'link_open') linkDepth++;
          else if (token.type === 'link_close') linkDepth--;
          if (token.type !== 'text' || linkDepth > 0) {
            children.push(token);
            continue;
          }
          let last = 0;
          for (const match of token.content.matchAll(MENTION)) {
            const login = match[1]!.replace(/[.-]+$/, '');
            if (login.length < 2) continue;
            mentions.push(login);
            const at = match.index + match[0].indexOf('@');
            const text = (content: string) => Object.assign(new state.Token('text', '', 0), { content });
            if (at > last) children.push(text(token.content.slice(last, at)));
            const open = new state.Token('link_open', 'a', 1);
            open.attrs = [
              ['href', `/${login}`],
              ['class', 'user-mention'],
            ];
            children.push(open, text(`@${login}`), new state.Token('link_close', 'a', -1));
            last = at + 1 + login.length;
          }
          if (last === 0) children.push(token);
          else if (last < token.content.length)
            children.push(Object.assign(new state.Token('text', '', 0), { content: token.content.slice(last) }));
        }
        block.children = children;
      }
    });
  }

  render(markdown: string): RenderedMarkdown {
    const env: { mentions?: string[] } = {};
    const html = sanitizeHtml(this.markdown.render(markdown, env), this.sanitizeOptions).trimEnd();
    return { html, mentions: env.mentions ?? [] };
  }
}
