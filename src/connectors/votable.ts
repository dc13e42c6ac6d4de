/**
 * Rows of a VOTable (the TAP default answer, and what SIMBAD's cone and script services send) in its
 * TABLEDATA serialisation: one object per <TR>, keyed by the <FIELD> names, numbers as numbers.
 * fast-xml-parser runs with entity processing off, so a document's DOCTYPE can never expand
 * entities; the predefined ones (`&amp;` in bibcodes, `&apos;`) are decoded once per cell.
 * A `long` beyond JavaScript's safe integers (Gaia's source_id) stays an exact decimal string.
 */
import { decodeEntities, safeXmlParser } from '../literature/xml.ts';
import { UpstreamError } from '../upstream/errors.ts';

export type VotableRow = Record<string, unknown>;

const parser = safeXmlParser(['RESOURCE', 'TABLE', 'FIELD', 'TR', 'TD', 'INFO']);

const NUMERIC = new Set(['unsignedByte', 'short', 'int', 'long', 'float', 'double']);
const MAX_MESSAGE = 200;

type Node = Record<string, unknown>;

interface Field {
  name: string;
  datatype: string;
  /** Numeric arrays (`arraysize` on a number) are kept as their text. */
  isArray: boolean;
}

export function votableRows(source: string, xml: string): VotableRow[] {
  let document: Node;
  try {
    document = parser.parse(xml) as Node;
  } catch (error) {
    throw new UpstreamError(source, 'bad_body', `${source} answered with a VOTable that could not be read (${(error as Error).message})`);
  }
  const votable = document.VOTABLE as Node | undefined;
  if (!votable || typeof votable !== 'object') throw new UpstreamError(source, 'bad_body', `${source} answered with XML that is not a VOTable`);
  const failure = queryError(votable);
  if (failure !== undefined) throw new UpstreamError(source, 'bad_body', `${source} reported a failed query: ${failure}`);
  const table = firstTable(votable);
  if (!table) throw new UpstreamError(source, 'bad_body', `${source} answered with a VOTable that holds no table`);
  const fields = asArray(table.FIELD).map(readField);
  const data = table.DATA as Node | undefined;
  if (data && !('TABLEDATA' in data)) {
    const serialisation = Object.keys(data).find((key) => !key.startsWith('@')) ?? 'unknown';
    throw new UpstreamError(source, 'bad_body', `${source} answered with a VOTable in the ${serialisation} serialisation; only TABLEDATA is read`);
  }
  const tableData = data?.TABLEDATA as Node | '' | undefined;
  const rows = tableData && typeof tableData === 'object' ? asArray(tableData.TR) : [];
  return rows.map((row) => {
    const cells = asArray((row as Node).TD);
    return Object.fromEntries(fields.map((field, index) => [field.name, cellValue(field, cells[index])]));
  });
}

function readField(node: unknown): Field {
  const field = node as Node;
  const name = field['@name'] ?? field['@ID'];
  if (typeof name !== 'string') throw new TypeError('a VOTable FIELD without a name');
  const arraysize = field['@arraysize'];
  return { name, datatype: String(field['@datatype'] ?? 'char'), isArray: typeof arraysize === 'string' && arraysize !== '1' };
}

function cellValue(field: Field, cell: unknown): unknown {
  const raw = cellText(cell);
  if (raw === '') return null;
  if (field.datatype === 'boolean') return /^(t|true|1)$/i.test(raw) ? true : /^(f|false|0)$/i.test(raw) ? false : null;
  if (!NUMERIC.has(field.datatype) || field.isArray) return decodeEntities(raw);
  const value = Number(raw);
  if (!Number.isFinite(value)) return null; // NaN, the TABLEDATA null of floating types
  if (field.datatype === 'long' && !Number.isSafeInteger(value) && /^-?\d+$/.test(raw)) return raw;
  return value;
}

function cellText(cell: unknown): string {
  if (cell === undefined || cell === null) return '';
  if (typeof cell === 'object') return cellText((cell as Node)['#text']);
  return String(cell);
}

/** The message of `<INFO name="QUERY_STATUS" value="ERROR">` at the document or a resource, clipped. */
function queryError(votable: Node): string | undefined {
  const infos = [...asArray(votable.INFO), ...resources(votable).flatMap((resource) => asArray(resource.INFO))] as Node[];
  const error = infos.find((info) => info['@name'] === 'QUERY_STATUS' && info['@value'] === 'ERROR');
  if (!error) return undefined;
  const message = decodeEntities(cellText(error)).replace(/\s+/g, ' ').trim() || 'no reason given';
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}

/** Every RESOURCE, nested ones included, in document order of nesting. */
function resources(node: Node): Node[] {
  return asArray(node.RESOURCE).flatMap((resource) => [resource as Node, ...resources(resource as Node)]);
}

function firstTable(votable: Node): Node | undefined {
  for (const resource of resources(votable)) {
    const [table] = asArray(resource.TABLE);
    if (table) return table as Node;
  }
  return undefined;
}

const asArray = (value: unknown): unknown[] => (value === undefined || value === null || value === '' ? [] : Array.isArray(value) ? value : [value]);
