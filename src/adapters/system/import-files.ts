import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ImportFiles } from '../../application/imports/ports.js';

/** Files of a folder an operator named (homeland's uploads): never a path that leads out of it. */
export class FolderImportFiles implements ImportFiles {
  async read(folder: string, path: string): Promise<Uint8Array | null> {
    const root = resolve(folder);
    const file = resolve(root, path);
    const inside = relative(root, file);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
    try {
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw error;
    }
  }
}
