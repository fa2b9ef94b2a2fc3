import { type Actor, requireUser } from '../actor.js';
import { type RawParam, Text, read } from '../inputs.js';
import type { MarkdownRenderer } from '../ports.js';

/**
 * A post's Markdown as it would be shown once saved (contract §21b: the pages' preview): the renderer a topic or a
 * reply is saved with, the same sanitizing, nothing stored and nobody told. For someone signed in, as writing is.
 */
export class PreviewPost {
  constructor(private readonly markdown: MarkdownRenderer) {}

  execute(actor: Actor, body: RawParam): string {
    requireUser(actor);
    return this.markdown.render(read(Text, body, 'body')).html;
  }
}
