import { ContainerModule } from 'inversify';
import { Clock, MailTokenKeys, MarkdownRenderer, PasswordHasher, SecretBox, SecretGenerator } from '../application/ports.js';
import type { Config } from '../config.js';
import { HmacMailTokenKeys } from '../adapters/system/mail-token-keys.js';
import { HmacPersonalTokenKeys } from '../adapters/system/personal-token-keys.js';
import { PersonalTokenKeys } from '../application/tokens/personal-tokens.js';
import { resolveSecretKey } from '../adapters/system/secret-key.js';
import { AesSecretBox } from '../adapters/system/secret-box.js';
import { AppConfig, provide } from './bind.js';
import { HtmlText, WordSegmenter } from '../application/search/ports.js';
import { Argon2PasswordHasher } from '../adapters/system/argon2-hasher.js';
import { SystemClock } from '../adapters/system/clock.js';
import { DeviseBcryptVerifier } from '../adapters/system/devise-bcrypt-verifier.js';
import { ParsedHtmlText } from '../adapters/system/html-text.js';
import { JiebaSegmenter } from '../adapters/system/jieba-segmenter.js';
import { SanitizingMarkdownRenderer } from '../adapters/system/markdown.js';
import { PasswordHashers } from '../adapters/system/password-hashers.js';
import { RandomSecretGenerator } from '../adapters/system/secret-generator.js';

/** The machine's services: time, hashing, secrets, mail-token and personal-token keys, Markdown, file types, words. */
export const systemModule = new ContainerModule(({ bind }) => {
  bind(Clock).toConstantValue(new SystemClock());
  // argon2id for every new hash; devise's bcrypt hashes imported from homeland (contract §20) still verify.
  bind(PasswordHasher).toConstantValue(new PasswordHashers(new Argon2PasswordHasher(), new DeviseBcryptVerifier()));
  bind(SecretGenerator).toConstantValue(new RandomSecretGenerator());
  bind(MarkdownRenderer).toConstantValue(new SanitizingMarkdownRenderer());
  bind(WordSegmenter).toConstantValue(new JiebaSegmenter());
  bind(HtmlText).toConstantValue(new ParsedHtmlText());
  // Resolved when first asked for: a process that sends no mail link needs no key.
  provide(bind, MailTokenKeys, (config: Config) => new HmacMailTokenKeys(resolveSecretKey(config.secretKey, config.dataDir)), [
    AppConfig,
  ]);
  // The same key seals what must be used again (a sign-in provider's client secret, contract §25).
  provide(bind, SecretBox, (config: Config) => new AesSecretBox(resolveSecretKey(config.secretKey, config.dataDir)), [AppConfig]);
  // Made with every Authenticate, so the key is read only when a personal token first comes by.
  provide(
    bind,
    PersonalTokenKeys,
    (config: Config) => new HmacPersonalTokenKeys(() => resolveSecretKey(config.secretKey, config.dataDir)),
    [AppConfig],
  );
});
