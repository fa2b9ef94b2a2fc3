import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { UploadStorage } from '../../application/ports.js';
import type { S3Settings } from '../../config.js';
import { Unavailable } from '../../domain/shared/errors.js';
import { type StoredFile, contentTypeOf } from './file-keys.js';

/** The SDK, loaded when a store is first made: a process that never uses S3 (forumctl, mostly) does not load it. */
let loaded: typeof S3 | undefined;
const sdk = (): typeof S3 => (loaded ??= createRequire(import.meta.url)('@aws-sdk/client-s3') as typeof S3);

/** How long a request to the store may take before it counts as unreachable (an upload answers 503 then). */
const CONNECT_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 15_000;
const A_YEAR = 365 * 24 * 60 * 60;

/**
 * Uploads in an S3-compatible store (UPLOADS_STORE=s3; AWS S3, MinIO, R2, …), through the official AWS SDK, so that
 * every host of the forum sees every upload. Path-style addressing (`endpoint/bucket/key`), which every
 * S3-compatible server understands. Files are written with their type and a year's immutable caching, for a store
 * that serves them itself (S3_PUBLIC_URL); otherwise this service serves them at PUBLIC_URL/uploads/, reading them
 * from the store. A store that cannot be reached throws Unavailable (503), after one retry.
 */
export class S3Storage implements UploadStorage {
  private readonly client: S3.S3Client;
  private readonly bucket: string;
  private readonly baseUrl: string;

  constructor(settings: S3Settings, publicUrl: string) {
    this.client = new (sdk().S3Client)({
      region: settings.region,
      forcePathStyle: true,
      maxAttempts: 2,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
      // Checksums only where S3 requires them: several S3-compatible stores refuse the newer default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.accessKeyId && settings.secretAccessKey
        ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
        : {}),
    });
    this.bucket = settings.bucket;
    this.baseUrl = settings.publicUrl ?? `${publicUrl.replace(/\/+$/, '')}/uploads`;
  }

  /** Written whether or not it is there (the same key is the same bytes): no read first, which needs ListBucket on AWS. */
  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    if (!contentTypeOf(key)) throw new Error(`not a storage key: ${key}`);
    await this.call((s3) =>
      s3.send(
        new (sdk().PutObjectCommand)({
          Bucket: this.bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          CacheControl: `public, max-age=${A_YEAR}, immutable`,
        }),
      ),
    );
  }

  async read(key: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    const object = await this.get(key);
    if (!object) return null;
    return { bytes: await object.Body!.transformToByteArray(), contentType: contentTypeOf(key)! };
  }

  async exists(key: string): Promise<boolean> {
    if (!contentTypeOf(key)) return false;
    try {
      await this.call((s3) => s3.send(new (sdk().HeadObjectCommand)({ Bucket: this.bucket, Key: key })));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    if (contentTypeOf(key)) await this.call((s3) => s3.send(new (sdk().DeleteObjectCommand)({ Bucket: this.bucket, Key: key })));
  }

  async *keys(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.call((s3) =>
        s3.send(new (sdk().ListObjectsV2Command)({ Bucket: this.bucket, ContinuationToken: token })),
      );
      for (const object of page.Contents ?? []) if (object.Key && contentTypeOf(object.Key)) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  urlOf(key: string): string {
    return `${this.baseUrl}/${key}`;
  }

  /** The file under `key`, opened for sending, or null when there is none (or `key` is not one of ours). */
  async open(key: string): Promise<StoredFile | null> {
    const object = await this.get(key);
    if (!object) return null;
    return {
      stream: object.Body as Readable,
      size: object.ContentLength ?? null,
      modified: object.LastModified ?? new Date(0),
      contentType: contentTypeOf(key)!,
    };
  }

  close(): void {
    this.client.destroy();
  }

  private async get(key: string) {
    if (!contentTypeOf(key)) return null;
    try {
      return await this.call((s3) => s3.send(new (sdk().GetObjectCommand)({ Bucket: this.bucket, Key: key })));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /**
   * One request. A store that does not answer (refused, unknown host, timed out) or answers 5xx is Unavailable (503,
   * the cause kept); anything else it says (a bucket that does not exist, keys it refuses) is an error of its own,
   * logged as such, for an operator to fix.
   */
  private async call<T>(request: (client: S3.S3Client) => Promise<T>): Promise<T> {
    try {
      return await request(this.client);
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      throw new Unavailable('The upload store cannot be reached right now; try again shortly', 5, { cause: error });
    }
  }
}

/** No such key (a HEAD's 404 has no code to tell; a missing bucket answers NoSuchBucket, an error of its own). */
function isMissing(error: unknown): boolean {
  return error instanceof sdk().NoSuchKey || error instanceof sdk().NotFound;
}

/** What the network says when nothing answers. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The store does not answer, or answers that it cannot serve now (5xx, throttled). */
function isUnreachable(error: unknown): boolean {
  if (error instanceof sdk().S3ServiceException) {
    const status = error.$metadata.httpStatusCode ?? 0;
    return status >= 500 || status === 429;
  }
  const { code, name, cause } = error as { code?: string; name?: string; cause?: { code?: string } };
  return UNREACHABLE.has(code ?? '') || UNREACHABLE.has(cause?.code ?? '') || name === 'TimeoutError';
}
