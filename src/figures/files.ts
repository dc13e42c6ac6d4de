/**
 * Image files under FILES_DIR, named by a random 32-character token (about 190 bits), so their
 * URLs cannot be guessed. Files are written to a temporary name and renamed, so a reader never
 * sees half a file.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBase62 } from '../ledger/ids.ts';

export const FILE_NAME = /^([A-Za-z0-9]{32})\.(png|svg)$/;

export const MIME_TYPES = { png: 'image/png', svg: 'image/svg+xml' } as const;

export function newFileToken(): string {
  return randomBase62(32);
}

export class FileStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  pathOf(name: string): string | undefined {
    return FILE_NAME.test(name) ? path.join(this.dir, name) : undefined;
  }

  async write(name: string, content: Buffer | string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const target = path.join(this.dir, name);
    const temporary = `${target}.${process.pid}.${randomBase62(8)}.part`;
    await writeFile(temporary, content);
    await rename(temporary, target);
  }
}

export function fileUrl(publicBaseUrl: string, name: string): string {
  return `${publicBaseUrl}/files/${name}`;
}
