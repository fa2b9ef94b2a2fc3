import { DENIED, policy } from '../../domain/shared/policy.js';
import { Forbidden, InvalidInput, TooManyRequests } from '../../domain/shared/errors.js';
import { MAX_IMAGE_PIXELS, UPLOAD_WINDOW_HOURS, uploadName } from '../../domain/uploads/upload.js';
import { type Actor, requireUser } from '../actor.js';
import type { Clock, UnitOfWork, UploadStorage } from '../ports.js';
import type { PostingRules } from '../review/posting-rules.js';
import { type ImageProcessor, type UploadRecords, fileKey } from './ports.js';

export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

const WINDOW_MS = UPLOAD_WINDOW_HOURS * 3_600_000;

/** A file as the request carried it. */
export interface ReceivedFile {
  bytes: Uint8Array;
  /** The name the client gave it, kept on the record (never used to store it). */
  name?: string | null;
}

/**
 * `POST /photos` (contract §7, §19): an image for topics and replies. It is cleaned (image adapter), stored once
 * under its content's SHA-256 whoever uploads it, and recorded for its uploader: the same bytes uploaded again by the
 * same person give the same record and URL. At most UPLOADS_PER_DAY new uploads a day each. A store that cannot be
 * reached answers 503 and leaves no record.
 */
export class UploadPhoto {
  constructor(
    private readonly images: ImageProcessor,
    private readonly storage: UploadStorage,
    private readonly records: UploadRecords,
    private readonly rules: PostingRules,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly perDay: number,
  ) {}

  async execute(actor: Actor, file: ReceivedFile | undefined): Promise<string> {
    const user = requireUser(actor);
    if (!file) throw new InvalidInput('file', 'file is missing: send the image as the multipart field "file"');
    if (!policy.uploadPhoto(user)) throw new Forbidden(DENIED.uploadPhoto);
    // Uploading is part of posting: a silenced or suspended account may not.
    this.rules.requireMayPost(await this.rules.author(user.id));
    const now = this.clock.now();
    const recent = await this.records.recent(user.id, new Date(now.getTime() - WINDOW_MS));
    if (recent.count >= this.perDay) {
      const freed = (recent.oldest?.getTime() ?? now.getTime()) + WINDOW_MS;
      throw new TooManyRequests(
        Math.max(1, Math.ceil((freed - now.getTime()) / 1000)),
        `At most ${this.perDay} uploads a day; try again later.`,
      );
    }
    const image = await this.images.clean(file.bytes);
    if (image === 'not-an-image') throw new InvalidInput('file', 'file must be a PNG, JPEG, GIF or WebP image');
    if (image === 'too-many-pixels') {
      throw new InvalidInput('file', `file declares more than ${MAX_IMAGE_PIXELS / 1_000_000} megapixels`);
    }
    const key = fileKey(image.sha256, image.extension);
    const { bytes: _bytes, ...kept } = image;
    await this.uow.run(async () => {
      // The file is written while it is held, and recorded before it is let go: a deletion of its last other record
      // waits, then finds this one (manage-uploads.ts). A store that fails rolls the record back.
      await this.records.lockFile(image.sha256);
      await this.storage.put(key, image.bytes, image.contentType);
      await this.records.add({ userId: user.id, name: uploadName(file.name), image: kept, at: now });
    });
    return this.storage.urlOf(key);
  }
}
