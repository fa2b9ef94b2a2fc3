import { ContainerModule } from 'inversify';
import { Clock, FileTypes, MarkdownRenderer, PasswordHasher, SecretGenerator } from '../application/ports.js';
import { HtmlText, WordSegmenter } from '../application/search/ports.js';
import { Argon2PasswordHasher } from '../adapters/system/argon2-hasher.js';
import { SystemClock } from '../adapters/system/clock.js';
import { SignatureFileTypes } from '../adapters/system/file-types.js';
import { ParsedHtmlText } from '../adapters/system/html-text.js';
import { JiebaSegmenter } from '../adapters/system/jieba-segmenter.js';
import { SanitizingMarkdownRenderer } from '../adapters/system/markdown.js';
import { RandomSecretGenerator } from '../adapters/system/secret-generator.js';

/** The machine's services: time, hashing, secrets, Markdown, file types, words. */
export const systemModule = new ContainerModule(({ bind }) => {
  bind(Clock).toConstantValue(new SystemClock());
  bind(PasswordHasher).toConstantValue(new Argon2PasswordHasher());
  bind(SecretGenerator).toConstantValue(new RandomSecretGenerator());
  bind(MarkdownRenderer).toConstantValue(new SanitizingMarkdownRenderer());
  bind(FileTypes).toConstantValue(new SignatureFileTypes());
  bind(WordSegmenter).toConstantValue(new JiebaSegmenter());
  bind(HtmlText).toConstantValue(new ParsedHtmlText());
});
