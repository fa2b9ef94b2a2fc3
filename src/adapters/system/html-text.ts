import { Parser } from 'htmlparser2';
import type { HtmlText } from '../../application/search/ports.js';

/** Elements after which a reader sees a break: their text must not run into the next block's. */
const BLOCKS = new Set([
  'p',
  'div',
  'br',
  'li',
  'ul',
  'ol',
  'pre',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'td',
  'th',
  'table',
  'hr',
]);

/** Rendered HTML to the text a reader sees, with htmlparser2 (the parser sanitize-html already uses). */
export class ParsedHtmlText implements HtmlText {
  plain(html: string): string {
    const pieces: string[] = [];
    const parser = new Parser(
      {
        ontext: (text) => pieces.push(text),
        onclosetag: (name) => {
          if (BLOCKS.has(name)) pieces.push('\n');
        },
      },
      { decodeEntities: true },
    );
    parser.write(html);
    parser.end();
    return pieces.join('').trim();
  }
}
