/**
 * SDMX-ML 2.1 structure messages (OECD's dataflow list, a dataflow's structure with its codelists)
 * read as they stream, with a SAX parser: only what the catalogue needs is kept, and a message of
 * several MB is read a piece at a time, so that other calls run between the pieces (parsed whole,
 * one real structure answer of 1.4 MB held the event loop for 150 ms: docs/benchmarks.md, run 37).
 *
 * Kept: each dataflow's id, agency, version, English name and description; the first data
 * structure's dimensions with their position and codelist; each codelist's codes with their English
 * names. An element's English text is that of its `Name` (or `Description`) child with
 * `xml:lang="en"`, else of its first one, with markup and runs of spaces removed.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { detached } from './detached.ts';

/** An attribute's value as kept: trimmed, and not a view into the piece it was read from. */
const trimmed = (value: string | undefined) => {
  const text = value?.trim();
  return text ? detached(text) : undefined;
};

export interface DataflowParts {
  id?: string;
  agency?: string;
  version?: string;
  name?: string;
  description?: string;
}

export interface DimensionParts {
  id?: string;
  position?: string;
  /** The key of its codelist (codelistKey). */
  codelist?: string;
}

export interface StructureParts {
  dataflows: DataflowParts[];
  /** How many data structures the message holds (only the first one's dimensions are kept). */
  dataStructures: number;
  /** The first data structure's dimensions, in the message's order (time left out). */
  dimensions: DimensionParts[];
  /** Codelist key → code → English name (the code itself when it has none). */
  codelists: Map<string, Map<string, string>>;
}

/** How a codelist is named, by its own attributes or by a reference to it. */
export const codelistKey = (attributes: { agencyID?: string; id?: string; version?: string }) =>
  `${trimmed(attributes.agencyID)}:${trimmed(attributes.id)}(${trimmed(attributes.version)})`;

/** The reader's errors: not XML at all, or XML that is not a structure message. */
export class NotStructure extends Error {
  constructor(readonly xml: boolean) {
    super(xml ? 'not an SDMX-ML structure message' : 'not XML');
  }
}

/** The texts of an element's Name (or Description) children, to pick the English one from. */
class Texts {
  private readonly found: Array<{ lang?: string; text: string }> = [];
  add(lang: string | undefined, text: string): void {
    this.found.push({ lang, text });
  }
  english(): string | undefined {
    const node = this.found.find((one) => one.lang === 'en') ?? this.found[0];
    const text = node?.text
      .trim()
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    return text ? detached(text) : undefined;
  }
}

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** Reads one structure message: `write` its text piece by piece, then `end`. */
export class StructureReader {
  private readonly parser = new SaxesParser();
  private readonly parts: StructureParts = { dataflows: [], dataStructures: 0, dimensions: [], codelists: new Map() };
  /** Local names of the open elements, outermost first. */
  private readonly open: string[] = [];
  private failure: Error | undefined;
  private root: string | undefined;
  // What is being read now.
  private dataflow: { parts: DataflowParts; names: Texts; descriptions: Texts } | undefined;
  private codelist: Map<string, string> | undefined;
  private code: { id?: string; names: Texts } | undefined;
  private dimension: DimensionParts | undefined;
  private text: { into: Texts; lang?: string; value: string } | undefined;

  constructor() {
    this.parser.on('opentag', (tag) => this.opened(tag));
    this.parser.on('closetag', (tag) => this.closed(local(tag.name)));
    this.parser.on('text', (text) => this.addText(text));
    this.parser.on('cdata', (text) => this.addText(text));
    this.parser.on('error', (error) => (this.failure ??= error));
  }

  write(piece: string): void {
    this.parser.write(piece);
    this.check();
  }

  /** What the message held, once it has ended. */
  end(): StructureParts {
    this.parser.close();
    this.check();
    if (this.root !== 'Structure') throw new NotStructure(this.root !== undefined);
    return this.parts;
  }

  private check(): void {
    if (this.failure) throw new NotStructure(false);
  }

  private addText(text: string): void {
    if (this.text) this.text.value += text;
  }

  private inside(...path: string[]): boolean {
    const start = this.open.length - path.length;
    return start >= 0 && path.every((name, index) => this.open[start + index] === name);
  }

  private opened(tag: SaxesTagPlain): void {
    const name = local(tag.name);
    const attributes = tag.attributes as Record<string, string>;
    this.root ??= name;
    if (name === 'Dataflow' && this.inside('Structures', 'Dataflows')) {
      const parts = { id: trimmed(attributes.id), agency: trimmed(attributes.agencyID), version: trimmed(attributes.version) };
      this.dataflow = { parts, names: new Texts(), descriptions: new Texts() };
    } else if (name === 'Codelist' && this.inside('Structures', 'Codelists')) {
      this.codelist = new Map();
      this.parts.codelists.set(codelistKey(attributes), this.codelist);
    } else if (name === 'Code' && this.codelist && this.inside('Codelist')) {
      this.code = { id: trimmed(attributes.id), names: new Texts() };
    } else if (name === 'DataStructure' && this.inside('Structures', 'DataStructures')) {
      this.parts.dataStructures += 1;
    } else if (name === 'Dimension' && this.parts.dataStructures === 1 && this.inside('DataStructure', 'DataStructureComponents', 'DimensionList')) {
      this.dimension = { id: trimmed(attributes.id), position: trimmed(attributes.position) };
      this.parts.dimensions.push(this.dimension);
    } else if (name === 'Ref' && this.dimension && this.inside('Dimension', 'LocalRepresentation', 'Enumeration')) {
      this.dimension.codelist = codelistKey(attributes);
    } else if (name === 'Name' || name === 'Description') {
      const owner = this.open.at(-1);
      const into =
        owner === 'Code' && this.code && name === 'Name'
          ? this.code.names
          : owner === 'Dataflow' && this.dataflow
            ? name === 'Name'
              ? this.dataflow.names
              : this.dataflow.descriptions
            : undefined;
      if (into) this.text = { into, lang: attributes['xml:lang'], value: '' };
    }
    this.open.push(name);
  }

  private closed(name: string): void {
    this.open.pop();
    if ((name === 'Name' || name === 'Description') && this.text) {
      this.text.into.add(this.text.lang, this.text.value);
      this.text = undefined;
    } else if (name === 'Dataflow' && this.dataflow && this.inside('Structures', 'Dataflows')) {
      this.parts.dataflows.push({ ...this.dataflow.parts, name: this.dataflow.names.english(), description: this.dataflow.descriptions.english() });
      this.dataflow = undefined;
    } else if (name === 'Code' && this.code && this.inside('Codelist')) {
      if (this.code.id) this.codelist!.set(this.code.id, this.code.names.english() ?? this.code.id);
      this.code = undefined;
    } else if (name === 'Codelist' && this.inside('Structures', 'Codelists')) {
      this.codelist = undefined;
    } else if (name === 'Dimension' && this.dimension && this.inside('DataStructure', 'DataStructureComponents', 'DimensionList')) {
      this.dimension = undefined;
    }
  }
}

/** A whole structure message's parts (the reader over one piece). */
export function readStructureParts(body: string): StructureParts {
  const reader = new StructureReader();
  reader.write(body);
  return reader.end();
}
