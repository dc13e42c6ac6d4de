/**
 * Turns what an upstream sent back into a short, clean reason for an error message: never HTML,
 * never a whole body. Knows the error formats of the sources in use (FDSN plain text, TAP VOTable
 * QUERY_STATUS, JSON `error`/`message` fields).
 */
const MAX_REASON = 200;

export function isHtml(contentType: string, text: string): boolean {
  return /html/i.test(contentType) || /^\s*(<!doctype html|<html)/i.test(text);
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
}

function decodeXmlText(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/** A one-line reason extracted from an error body, or undefined when nothing useful is in it. */
export function reasonFromBody(contentType: string, text: string): string | undefined {
  if (text.trim() === '') return undefined;
  if (isHtml(contentType, text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1];
    return title && title.trim() ? `an HTML page titled "${clip(decodeXmlText(title))}"` : 'an HTML page';
  }
  const votableError = /<INFO[^>]*name="QUERY_STATUS"[^>]*value="ERROR"[^>]*>([\s\S]*?)<\/INFO>/i.exec(text)?.[1];
  if (votableError !== undefined) return clip(decodeXmlText(votableError.replace(/<[^>]*>/g, ' ')));
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as Record<string, unknown>;
      const error = parsed.error;
      const nested = error && typeof error === 'object' ? (error as Record<string, unknown>).message : undefined;
      const candidate = [error, nested, parsed.message, parsed.detail, parsed.reason].find((value): value is string => typeof value === 'string' && value !== '');
      return candidate ? clip(candidate) : undefined;
    } catch {
      // not JSON after all: fall through to plain text
    }
  }
  if (trimmed.startsWith('<') || trimmed.startsWith('[')) return undefined;
  // Plain text such as the FDSN layout "Error 400: Bad Request\n\n<reason>\n…": the first line after the status line.
  const lines = trimmed.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const first = lines[0] ?? '';
  const reason = /^Error \d{3}/.test(first) && lines[1] ? lines[1] : first;
  return clip(reason);
}

/** The start of a body for "this is not JSON" messages, with control characters removed. */
export function bodySnippet(text: string): string {
  return clip(text.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, ' ')).slice(0, 60);
}
