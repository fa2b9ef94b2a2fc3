import { DENIED, policy } from '../../domain/shared/policy.js';
import { Forbidden, InvalidInput } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock, FileTypes, SecretGenerator, UploadStorage } from '../ports.js';

/** The images a photo may be (contract §7), by the type its bytes show. */
export const PHOTO_TYPES: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/**
 * `POST /photos`: stores an image for use in topics and replies and answers its URL. The name is the service's
 * own (a random one under the month's folder); the client's file name is never used.
 */
export class UploadPhoto {
  constructor(
    private readonly storage: UploadStorage,
    private readonly types: FileTypes,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, file: { bytes: Uint8Array } | undefined): Promise<string> {
    const user = requireUser(actor);
    if (!file) throw new InvalidInput('file', 'file is missing: send the image as the multipart field "file"');
    if (!policy.uploadPhoto(user)) throw new Forbidden(DENIED.uploadPhoto);
    const type = await this.types.detect(file.bytes);
    const extension = type ? PHOTO_TYPES[type.mime] : undefined;
    if (!type || !extension) throw new InvalidInput('file', 'file must be a PNG, JPEG, GIF or WebP image');
    const now = this.clock.now();
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    const key = `photos/${month}/${this.secrets.generate().slice(0, 32)}.${extension}`;
    return this.storage.put(key, file.bytes, type.mime);
  }
}
