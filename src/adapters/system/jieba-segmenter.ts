import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import type { WordSegmenter } from '../../application/search/ports.js';

const require = createRequire(import.meta.url);

/** Han characters (Chinese, and kanji in Japanese): cut into words by jieba's dictionary. */
const HAN = String.raw`\p{Script=Han}+`;
/** Kana and Hangul runs: no dictionary here, so overlapping pairs of characters (as Lucene's CJK analyzer does). */
const PAIRED = String.raw`[\p{Script=Hiragana}\p{Script=Katakana}\u30FC\p{Script=Hangul}]+`;
const RUNS = new RegExp(`(${HAN})|(${PAIRED})`, 'gu');

function pairs(run: string): string[] {
  const characters = Array.from(run);
  if (characters.length < 2) return characters;
  return characters.slice(1).map((character, i) => characters[i]! + character);
}

/**
 * Word segmentation with jieba (@node-rs/jieba: jieba-rs, prebuilt for every platform we support, no install
 * script). Text outside the runs above passes through: PostgreSQL's parser splits it on spaces and
 * punctuation and stems the Latin words. Without HMM, so that a word is cut the same way in a query and in
 * the text it should find. The dictionary (5 MB) is loaded on first use, not when a process starts.
 */
export class JiebaSegmenter implements WordSegmenter {
  private jieba: Jieba | null = null;

  forIndex(text: string): string {
    return this.segment(text, (run) => this.dictionary().cutForSearch(run, false));
  }

  forQuery(text: string): string {
    return this.segment(text, (run) => this.dictionary().cut(run, false));
  }

  private segment(text: string, cut: (run: string) => string[]): string {
    return text.replace(RUNS, (_match, han: string | undefined, paired: string | undefined) => {
      const words = han ? cut(han) : pairs(paired!);
      return ` ${words.join(' ')} `;
    });
  }

  private dictionary(): Jieba {
    if (!this.jieba) {
      const { Jieba: JiebaClass } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
      const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
      this.jieba = JiebaClass.withDict(dict);
    }
    return this.jieba;
  }
}
