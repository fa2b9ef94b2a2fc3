import type { HtmlText } from './ports.js';

/** A piece of a highlight: text, marked where it matched the query. */
export interface HighlightPart {
  text: string;
  marked: boolean;
}

/** Scripts written without spaces between words: their lexemes are found as they are, inside the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A character of a word in a spaced script (Latin and the like) or a number: not a space, punctuation or the above. */
const SPACED_CHARACTER = '[^\\s\\p{P}\\p{S}\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]';
const SPACED_STEM = new RegExp(`^${SPACED_CHARACTER}+$`, 'u');

/**
 * The words the stems begin, as one expression: a stem (`databas`) marks every word it begins (`database`,
 * `databases`), whatever its case: what the stemmer made of them. One pass over the text for all stems, which
 * the engine skips through looking for the stems' letters, instead of testing every word of the text.
 */
function wordsBegunBy(stems: readonly string[]): RegExp | null {
  // A stem with a character no word holds (`e-mail`) begins no word. The others hold no punctuation or symbol,
  // so nothing in them needs escaping.
  const usable = stems.filter((stem) => SPACED_STEM.test(stem));
  if (usable.length === 0) return null;
  return new RegExp(`(?<!${SPACED_CHARACTER})(?:${usable.join('|')})${SPACED_CHARACTER}*`, 'giu');
}

/** Finds where the query's lexemes occur in a text: made once per query, used on every result. */
function matcherOf(lexemes: readonly string[]): (text: string) => [number, number][] {
  const unspaced = lexemes.filter((lexeme) => UNSPACED.test(lexeme));
  const words = wordsBegunBy(lexemes.filter((lexeme) => !UNSPACED.test(lexeme)));
  /** Where they occur in `text`, merged and in order (UTF-16 offsets). */
  return (text) => {
    const found: [number, number][] = [];
    for (const lexeme of unspaced) {
      for (let at = text.indexOf(lexeme); at !== -1; at = text.indexOf(lexeme, at + lexeme.length)) {
        found.push([at, at + lexeme.length]);
      }
    }
    if (words) for (const word of text.matchAll(words)) found.push([word.index, word.index + word[0].length]);
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged: [number, number][] = [];
    for (const range of found) {
      const last = merged.at(-1);
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push([...range]);
    }
    return merged;
  };
}

/**
 * A short excerpt of a text on one line (`oneLine`) around the first place the query matched, with the matches
 * marked; null when nothing in it matches. An excerpt that starts or ends inside the text says so
 * with an ellipsis. Never cuts a character in two (code points, not UTF-16 units).
 */
export type Highlighter = (text: string) => HighlightPart[] | null;

/** The text on one line: every run of whitespace one space, none at the ends. What excerpts are cut from. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The text a reader sees of rendered HTML, on one line: what a search document keeps, and excerpts are cut from. */
export const readerText = (html: HtmlText, bodyHtml: string) => oneLine(html.plain(bodyHtml));

/** Characters outside the Basic Multilingual Plane (emoji…) take two UTF-16 units. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** A text as code points, for cutting by character. */
interface Characters {
  length: number;
  slice(from: number, to?: number): string;
  /** The character at a UTF-16 offset. */
  at(unit: number): number;
}

/**
 * Most text has no character outside the Basic Multilingual Plane: there a UTF-16 unit is a character, and the
 * string itself serves, without an array of the whole text.
 */
function charactersOf(text: string): Characters {
  if (!SURROGATE.test(text)) return { length: text.length, slice: (from, to) => text.slice(from, to), at: (unit) => unit };
  const points = Array.from(text);
  const unitToPoint: number[] = [];
  points.forEach((character, point) => {
    for (let i = 0; i < character.length; i++) unitToPoint.push(point);
  });
  unitToPoint.push(points.length);
  return { length: points.length, slice: (from, to) => points.slice(from, to).join(''), at: (unit) => unitToPoint[unit]! };
}

/** Makes excerpts that mark where the query's `lexemes` matched (see `Highlighter`). */
export function highlighter(lexemes: readonly string[], length = 160): Highlighter {
  const matches = matcherOf(lexemes);
  return (flat) => {
    const ranges = matches(flat);
    if (ranges.length === 0) return null;
    // Offsets so far are UTF-16 units; the excerpt is cut on code points.
    const characters = charactersOf(flat);
    const points = ranges.map(([start, end]) => [characters.at(start), characters.at(end)] as const);

    const lead = Math.floor(length / 4);
    const start = Math.max(0, Math.min(points[0]![0] - lead, characters.length - length));
    const end = Math.min(characters.length, start + length);
    const parts: HighlightPart[] = [];
    const add = (text: string, marked: boolean) => text && parts.push({ text, marked });
    if (start > 0) add('…', false);
    let at = start;
    for (const [from, to] of points) {
      if (to <= at || from >= end) continue;
      add(characters.slice(at, Math.max(at, from)), false);
      add(characters.slice(Math.max(at, from), Math.min(to, end)), true);
      at = Math.min(to, end);
    }
    add(characters.slice(at, end), false);
    if (end < characters.length) add('…', false);
    return parts;
  };
}

/** The start of a text on one line, unmarked: the excerpt of a result that matched elsewhere (its title). */
export function excerpt(flat: string, length = 160): HighlightPart[] {
  const characters = charactersOf(flat);
  const parts: HighlightPart[] = [{ text: characters.slice(0, length), marked: false }];
  if (characters.length > length) parts.push({ text: '…', marked: false });
  return parts;
}

/**
 * A result's highlight: where its text (on one line) matched, else (a topic found by its title alone) where its
 * title did, else the start of its text.
 */
export function resultHighlight(highlight: Highlighter, flat: string, matchedTitle: string | null): HighlightPart[] {
  return highlight(flat) ?? (matchedTitle === null ? null : highlight(oneLine(matchedTitle))) ?? excerpt(flat);
}
