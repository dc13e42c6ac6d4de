/**
 * The one typeface figures use, shipped by an npm package (Inter, SIL Open Font License), never a
 * system font: its files are handed to the PNG renderer, and its advance widths (read from the
 * font's own cmap/hmtx tables) let the layout measure text exactly as it will be drawn.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const FONT_FAMILY = 'Inter';

const require = createRequire(import.meta.url);
const packageRoot = path.dirname(require.resolve('@expo-google-fonts/inter/package.json'));

/** Font files by weight; the renderer loads exactly these. */
export const fontFiles = {
  400: path.join(packageRoot, '400Regular', 'Inter_400Regular.ttf'),
  500: path.join(packageRoot, '500Medium', 'Inter_500Medium.ttf'),
  600: path.join(packageRoot, '600SemiBold', 'Inter_600SemiBold.ttf'),
  700: path.join(packageRoot, '700Bold', 'Inter_700Bold.ttf'),
  italic: path.join(packageRoot, '400Regular_Italic', 'Inter_400Regular_Italic.ttf'),
} as const;

export type FontWeight = 400 | 500 | 600 | 700;

interface Metrics {
  unitsPerEm: number;
  advance: Map<number, number>;
  fallback: number;
}

function table(font: Buffer, tag: string): number {
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    if (font.toString('latin1', record, record + 4) === tag) return font.readUInt32BE(record + 8);
  }
  throw new Error(`font has no ${tag} table`);
}

/** Character → glyph from a format 4 (BMP) or format 12 (full Unicode) cmap subtable. */
function readCmap(font: Buffer): Map<number, number> {
  const cmap = table(font, 'cmap');
  const subtables = font.readUInt16BE(cmap + 2);
  let best = -1;
  let bestFormat = 0;
  for (let i = 0; i < subtables; i++) {
    const offset = cmap + font.readUInt32BE(cmap + 4 + i * 8 + 4);
    const format = font.readUInt16BE(offset);
    if ((format === 12 && bestFormat !== 12) || (format === 4 && bestFormat === 0)) {
      best = offset;
      bestFormat = format;
    }
  }
  const glyphs = new Map<number, number>();
  if (bestFormat === 12) {
    const groups = font.readUInt32BE(best + 12);
    for (let g = 0; g < groups; g++) {
      const at = best + 16 + g * 12;
      const start = font.readUInt32BE(at);
      const end = font.readUInt32BE(at + 4);
      const glyph = font.readUInt32BE(at + 8);
      for (let c = start; c <= end && c < 0x30000; c++) glyphs.set(c, glyph + (c - start));
    }
  } else if (bestFormat === 4) {
    const segments = font.readUInt16BE(best + 6) / 2;
    const ends = best + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const ranges = deltas + segments * 2;
    for (let s = 0; s < segments; s++) {
      const end = font.readUInt16BE(ends + s * 2);
      const start = font.readUInt16BE(starts + s * 2);
      const delta = font.readInt16BE(deltas + s * 2);
      const rangeOffset = font.readUInt16BE(ranges + s * 2);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (c + delta) & 0xffff;
        else {
          const at = ranges + s * 2 + rangeOffset + (c - start) * 2;
          glyph = font.readUInt16BE(at);
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) glyphs.set(c, glyph);
      }
    }
  }
  return glyphs;
}

function readMetrics(file: string): Metrics {
  const font = readFileSync(file);
  const unitsPerEm = font.readUInt16BE(table(font, 'head') + 18);
  const metricCount = font.readUInt16BE(table(font, 'hhea') + 34);
  const hmtx = table(font, 'hmtx');
  const advanceOf = (glyph: number): number => font.readUInt16BE(hmtx + Math.min(glyph, metricCount - 1) * 4);
  const advance = new Map<number, number>();
  for (const [char, glyph] of readCmap(font)) advance.set(char, advanceOf(glyph));
  return { unitsPerEm, advance, fallback: advance.get(0x6f) ?? unitsPerEm / 2 };
}

const cache = new Map<FontWeight, Metrics>();

function metrics(weight: FontWeight): Metrics {
  let found = cache.get(weight);
  if (!found) {
    found = readMetrics(fontFiles[weight]);
    cache.set(weight, found);
  }
  return found;
}

/** Width of `text` set in the figure font at `size` px and `weight` (no kerning: a hair wide, never narrow). */
export function textWidth(text: string, size: number, weight: FontWeight = 400): number {
  const { unitsPerEm, advance, fallback } = metrics(weight);
  let units = 0;
  for (const char of text) units += advance.get(char.codePointAt(0)!) ?? fallback;
  return (units / unitsPerEm) * size;
}
