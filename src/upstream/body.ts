/**
 * Turns what an upstream sent back into a short, clean reason for an error message: never HTML,
 * never a whole body, at most 200 characters without control characters. Knows the error formats
 * of the sources in use (FDSN plain text, TAP VOTable QUERY_STATUS, JSON `error`/`message`/
 * `error_message`/`detail`/`reason` fields (Open-Meteo's `reason`), Crossref's `message` list of `{message}` objects, OpenAlex's
 * `error` with its `message`, Eurostat's `error[].label`, PubChem's `Fault`, JSON:API `errors[].title`).
 */
const MAX_REASON = 200;

export function isHtml(contentType: string, text: string): boolean {
  return /html/i.test(contentType) || /^\s*(<!doctype html|<html)/i.test(text);
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufffd]/g;

function clip(text: string): string {
  const flat = text.replace(CONTROL_CHARACTERS, ' ').replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
}

function decodeXmlText(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
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
      const reason = jsonReason(JSON.parse(trimmed) as Record<string, unknown>);
      return reason ? clip(reason) : undefined;
    } catch {
      // not JSON after all: fall through to plain text
    }
  }
  if (trimmed.startsWith('<') || trimmed.startsWith('[')) return undefined;
  // Plain text such as the FDSN layout "Error 400: Bad Request\n\n<reason>\n…": the first line after the status line.
  const lines = trimmed
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines[0] ?? '';
  const reason = /^Error \d{3}/.test(first) && lines[1] ? lines[1] : first;
  return clip(reason);
}

/** The texts of a JSON error field: a string, a `{message}` (or JSON:API `{title}`, Eurostat `{label}`) object, or a list of either. */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (Array.isArray(value)) return value.flatMap(texts);
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return texts(object.message ?? object.title ?? object.label);
  }
  return [];
}

/** PubChem's `{"Fault":{"Code","Message"}}`, as "Code: Message". */
function faultTexts(fault: unknown): string[] {
  if (!fault || typeof fault !== 'object') return [];
  const { Code: code, Message: message } = fault as Record<string, unknown>;
  return typeof message === 'string' ? [`${typeof code === 'string' ? code : 'Fault'}: ${message}`] : [];
}

/** `error` and `message` (or `detail`, `errors`) of a JSON error body, joined: "Invalid query parameters error: X is not a valid field". */
function jsonReason(body: Record<string, unknown>): string | undefined {
  const parts = [
    ...new Set([...faultTexts(body.Fault), ...[body.error, body.message, body.error_message, body.detail, body.reason, body.errors].flatMap(texts)]),
  ];
  if (parts.length === 0) return undefined;
  return parts.map((part, index) => (index < parts.length - 1 ? part.replace(/[.:;]+$/, '') : part)).join(': ');
}

/** The start of a body for "this is not JSON" messages, with control characters removed. */
export function bodySnippet(text: string): string {
  return clip(text).slice(0, 60);
}
