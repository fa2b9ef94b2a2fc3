import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { MarkdownRenderer, RenderedMarkdown } from '../../application/ports.js';

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
 * text of script and style goes with them). A core rule turns `@mentions` in text outside links and code into
 * links and collects them.
 */
export class SanitizingMarkdownRenderer implements MarkdownRenderer {
  private readonly markdown = new MarkdownIt({ html: true, linkify: true, breaks: true });

  private readonly sanitizeOptions: sanitizeHtml.IOptions = {
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

  constructor() {
    // Table alignment as a class (text-left, text-center, text-right): style attributes never survive.
    for (const rule of ['th_open', 'td_open'] as const) {
      this.markdown.renderer.rules[rule] = (tokens, index, options, _env, renderer) => {
        const token = tokens[index]!;
        const align = /text-align:(left|right|center)/.exec(String(token.attrGet('style') ?? ''))?.[1];
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
        if (align) token.attrJoin('class', `text-${align}`);
        return renderer.renderToken(tokens, index, options);
      };
    }
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
