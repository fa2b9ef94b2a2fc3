/** A piece of a highlight: text, marked where it matched the query. */
export interface HighlightPart {
  text: string;
  marked: boolean;
}

/** Scripts written without spaces between words: their lexemes are found as they are, inside the text. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Words of spaced scripts (Latin and the like) and numbers: runs of anything but spaces, punctuation and the above. */
const SPACED_WORD = /[^\s\p{P}\p{S}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** Where the query's lexemes occur in `text`, merged and in order. */
function matches(text: string, lexemes: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  const unspaced = lexemes.filter((lexeme) => UNSPACED.test(lexeme));
  // A stem (`databas`) marks every word it begins (`database`, `databases`): what the stemmer made of them.
  const stems = lexemes.filter((lexeme) => !UNSPACED.test(lexeme));
  for (const lexeme of unspaced) {
    for (let at = text.indexOf(lexeme); at !== -1; at = text.indexOf(lexeme, at + lexeme.length)) {
      found.push([at, at + lexeme.length]);
    }
  }
  if (stems.length > 0) {
    for (const word of text.matchAll(SPACED_WORD)) {
      const lower = word[0].toLowerCase();
      if (stems.some((stem) => lower.startsWith(stem))) found.push([word.index, word.index + word[0].length]);
    }
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const range of found) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/**
 * A short excerpt of `text` around the first place the query matched, with the matches marked; null when
 * nothing in it matches. Whitespace is collapsed; an excerpt that starts or ends inside the text says so
 * with an ellipsis. Never cuts a character in two (code points, not UTF-16 units).
 */
export function highlight(text: string, lexemes: readonly string[], length = 160): HighlightPart[] | null {
  const flat = text.replace(/\s+/g, ' ').trim();
  const ranges = matches(flat, lexemes);
  if (ranges.length === 0) return null;
  const characters = Array.from(flat);
  // Offsets so far are UTF-16 units; the excerpt is cut on code points.
  const unitToPoint: number[] = [];
  characters.forEach((character, point) => {
    for (let i = 0; i < character.length; i++) unitToPoint.push(point);
  });
  unitToPoint.push(characters.length);
  const points = ranges.map(([start, end]) => [unitToPoint[start]!, unitToPoint[end]!] as const);

  const lead = Math.floor(length / 4);
  const start = Math.max(0, Math.min(points[0]![0] - lead, characters.length - length));
  const end = Math.min(characters.length, start + length);
  const parts: HighlightPart[] = [];
  const add = (text: string, marked: boolean) => text && parts.push({ text, marked });
  if (start > 0) add('…', false);
  let at = start;
  for (const [from, to] of points) {
    if (to <= at || from >= end) continue;
    add(characters.slice(at, Math.max(at, from)).join(''), false);
    add(characters.slice(Math.max(at, from), Math.min(to, end)).join(''), true);
    at = Math.min(to, end);
  }
  add(characters.slice(at, end).join(''), false);
  if (end < characters.length) add('…', false);
  return parts;
}

/** The start of `text`, unmarked: the excerpt of a result that matched elsewhere (its title). */
export function excerpt(text: string, length = 160): HighlightPart[] {
  const characters = Array.from(text.replace(/\s+/g, ' ').trim());
  const parts: HighlightPart[] = [{ text: characters.slice(0, length).join(''), marked: false }];
  if (characters.length > length) parts.push({ text: '…', marked: false });
  return parts;
}
