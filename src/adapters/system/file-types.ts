import { fileTypeFromBuffer } from 'file-type';
import type { FileTypes } from '../../application/ports.js';

/** file-type reads the signature in a file's first bytes. */
export class SignatureFileTypes implements FileTypes {
  async detect(bytes: Uint8Array): Promise<{ mime: string; extension: string } | null> {
    const type = await fileTypeFromBuffer(bytes);
    return type ? { mime: type.mime, extension: type.ext } : null;
  }
}
