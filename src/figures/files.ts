/**
 * Figure image files. The bytes live in the shared database (table figure_files), written in the
 * transaction that marks their figure finished, so every server process on every machine serves
 * them and a finished figure always has its files. A local folder (FILES_DIR) is only a cache of
 * those rows on one machine: it may be empty, shared or absent without losing anything.
 *
 * Files are named by a random 32-character token (about 190 bits) and their type, so their URLs
 * cannot be guessed; a name is written once and never changes.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { randomBase62 } from '../database/ids.ts';

export const FILE_NAME = /^([A-Za-z0-9]{32})\.(png|svg)$/;

export const MIME_TYPES = { png: 'image/png', svg: 'image/svg+xml' } as const;

/** The largest file a figure may have; a bigger image fails its figure instead of being stored. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export function newFileToken(): string {
  return randomBase62(32);
}

export function fileUrl(publicBaseUrl: string, name: string): string {
  return `${publicBaseUrl}/files/${name}`;
}

export interface FigureFile {
  /** `<token>.<png|svg>` */
  name: string;
  content: Buffer;
}

export interface StoredFile extends FigureFile {
  mimeType: string;
}

export class FileTooLargeError extends Error {
  constructor(
    readonly fileName: string,
    readonly size: number,
  ) {
    super(`the file ${fileName} is ${size} bytes; a figure file may have at most ${MAX_FILE_BYTES} bytes`);
    this.name = 'FileTooLargeError';
  }
}

function mimeTypeOf(name: string): string {
  const match = FILE_NAME.exec(name);
  if (!match) throw new Error(`"${name}" is not a figure file name (<32 base62 characters>.png|svg)`);
  return MIME_TYPES[match[2] as keyof typeof MIME_TYPES];
}

/** Checks names and sizes before anything is written, so a refused file leaves nothing behind. */
export function checkFiles(files: readonly FigureFile[]): void {
  for (const file of files) {
    mimeTypeOf(file.name);
    if (file.content.length > MAX_FILE_BYTES) throw new FileTooLargeError(file.name, file.content.length);
  }
}

/** Writes the files of a figure inside the caller's transaction (the one that marks it finished). */
export async function insertFiles(trx: Knex | Knex.Transaction, figureId: string | null, files: readonly FigureFile[]): Promise<void> {
  checkFiles(files);
  const now = new Date();
  for (const file of files) {
    await trx('figure_files')
      .insert({ name: file.name, figure_id: figureId, mime_type: mimeTypeOf(file.name), size: file.content.length, content: file.content, created_at: now })
      .onConflict('name')
      .ignore();
  }
}

/**
 * Reads figure files: from the local cache folder when it has the file, otherwise from the
 * database (and then keeps a copy in the cache). Without a folder every read goes to the database.
 */
export class FileStore {
  readonly cacheDir: string | undefined;

  constructor(
    private readonly db: Knex,
    cacheDir?: string,
  ) {
    this.cacheDir = cacheDir ? path.resolve(cacheDir) : undefined;
  }

  async read(name: string): Promise<StoredFile | undefined> {
    if (!FILE_NAME.test(name)) return undefined;
    const cached = await this.readCache(name);
    if (cached) return cached;
    const row: { content: Buffer; mime_type: string } | undefined = await this.db('figure_files').where({ name }).first('content', 'mime_type');
    if (!row) return undefined;
    const file: StoredFile = { name, content: Buffer.from(row.content), mimeType: row.mime_type };
    await this.writeCache(file).catch(() => undefined);
    return file;
  }

  /** Puts a file in the cache folder; a reader never sees half a file (temporary name, then rename). */
  async writeCache(file: FigureFile): Promise<void> {
    if (!this.cacheDir) return;
    await mkdir(this.cacheDir, { recursive: true });
    const target = path.join(this.cacheDir, file.name);
    const temporary = `${target}.${process.pid}.${randomBase62(8)}.part`;
    await writeFile(temporary, file.content);
    await rename(temporary, target);
  }

  private async readCache(name: string): Promise<StoredFile | undefined> {
    if (!this.cacheDir) return undefined;
    try {
      const content = await readFile(path.join(this.cacheDir, name));
      // The cache holds only copies of database rows (or legacy files already imported), whose bytes never change.
      return { name, content, mimeType: mimeTypeOf(name) };
    } catch {
      return undefined;
    }
  }
}

/**
 * Moves figure files that an older version kept only in FILES_DIR into the database, so their
 * URLs keep working on every process. Safe to run at every start and from several processes at
 * once: a name already stored is left as it is. Files over the size bound are left out and named.
 */
export async function importLegacyFiles(db: Knex, dir: string): Promise<{ imported: string[]; tooLarge: string[] }> {
  const result = { imported: [] as string[], tooLarge: [] as string[] };
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => FILE_NAME.test(name)).sort();
  } catch {
    return result;
  }
  for (const name of names) {
    if (await db('figure_files').where({ name }).first('name')) continue;
    const content = await readFile(path.join(dir, name));
    if (content.length > MAX_FILE_BYTES) {
      result.tooLarge.push(name);
      continue;
    }
    const token = FILE_NAME.exec(name)![1]!;
    const figure: { id: string } | undefined = await db('figures').where({ file_token: token }).first('id');
    await insertFiles(db, figure?.id ?? null, [{ name, content }]);
    result.imported.push(name);
  }
  return result;
}
