/**
 * The one XML parser of the literature connectors (arXiv Atom, PubMed efetch): fast-xml-parser with
 * entity processing switched off, so a document's DOCTYPE can declare entities but never expand them
 * (no "billion laughs", no external entities). The five predefined XML entities and numeric
 * character references are decoded by hand afterwards, once, without recursion.
 */
import { XMLParser } from 'fast-xml-parser';
import type { SourceId } from '../../generated/types.ts';
import { UpstreamError } from '../upstream/errors.ts';

/** A parser with the settings above; the elements named in `repeated` are always read as arrays. */
export function safeXmlParser(repeated: readonly string[]): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    textNodeName: '#text',
    isArray: (name) => repeated.includes(name),
  });
}

const parser = safeXmlParser([
  'entry',
  'author',
  'link',
  'category',
  'PubmedArticle',
  'Author',
  'AbstractText',
  'ArticleId',
  'ELocationID',
  'arxiv:affiliation',
]);

export class XmlError extends Error {}

/** The parsed document; a document the parser refuses (external entities, broken markup) is an XmlError. */
export function parseXml(text: string): Record<string, unknown> {
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new XmlError(`XML that could not be read safely (${(error as Error).message})`);
  }
}

/** Decodes the predefined entities and character references of a text node (no others, no recursion). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|apos|amp);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    if (lower === 'amp') return '&';
    const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Text content of a parsed node (string, or object with #text, possibly with inline markup children), decoded and whitespace-collapsed. */
export function textOf(node: unknown): string | undefined {
  const raw = rawText(node);
  if (raw === undefined) return undefined;
  const text = decodeEntities(raw).replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text;
}

function rawText(node: unknown): string | undefined {
  if (node === undefined || node === null) return undefined;
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node))
    return node
      .map(rawText)
      .filter((part) => part !== undefined)
      .join(' ');
  if (typeof node === 'object') {
    const parts: string[] = [];
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key.startsWith('@')) continue;
      const part = rawText(value);
      if (part !== undefined) parts.push(part);
    }
    return parts.join(' ');
  }
  return undefined;
}

export const asArray = <T>(value: T | T[] | undefined | null): T[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

/** A source's XML answer; one the parser refuses becomes that source's bad_body failure. */
export function parseSourceXml(source: SourceId, text: string): Record<string, unknown> {
  try {
    return parseXml(text);
  } catch (error) {
    if (error instanceof XmlError) throw new UpstreamError(source, 'bad_body', `${source} answered with ${error.message}`);
    throw error;
  }
}
