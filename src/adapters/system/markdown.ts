import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import type { MarkdownRenderer } from '../../application/ports.js';

/**
 * markdown-it with raw HTML off (its link validation already refuses `javascript:` and friends), then
 * sanitize-html as a second wall: only the tags Markdown produces, only safe URL schemes, no event attributes.
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
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title'],
      code: ['class'],
      ol: ['start'],
      th: ['style'],
      td: ['style'],
    },
    allowedClasses: { code: [/^language-[\w-]+$/] },
    allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowProtocolRelative: false,
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener' }) },
  };

  render(markdown: string): string {
    return sanitizeHtml(this.markdown.render(markdown), this.sanitizeOptions).trimEnd();
  }
}
