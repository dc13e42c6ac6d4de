import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Ajv } from 'ajv';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import { manifestMetaSchema } from './meta-schema.ts';
import { ManifestError, type FieldPath, type ManifestIssue } from './issues.ts';
import { checkManifest } from './validate.ts';
import { expandEnumFrom, expandLimits, handWrittenIdEnums } from './enum-from.ts';
import type { Manifest } from './types.ts';

const validateStructure = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(manifestMetaSchema);

function toFieldPath(instancePath: string): FieldPath {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** The line of the deepest existing node on the path, so a missing field points at its parent. */
function lineOf(document: Document, lineCounter: LineCounter, path: FieldPath): number | undefined {
  for (let length = path.length; length >= 0; length -= 1) {
    const node = document.getIn(path.slice(0, length), true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
  }
  return undefined;
}

function toolNameAt(value: unknown, path: FieldPath): string | undefined {
  if (path[0] !== 'tools' || typeof path[1] !== 'number') return undefined;
  const tools = (value as { tools?: Array<{ name?: unknown }> }).tools;
  const name = tools?.[path[1]]?.name;
  return typeof name === 'string' ? name : undefined;
}

export interface ManifestChecks {
  /** Checks that need more than the manifest (connector exports); run once the manifest itself is valid. */
  more?: (manifest: Manifest) => ManifestIssue[];
}

/** Parses and validates manifest text; `file` names it in every error. Throws ManifestError. */
export function parseManifest(text: string, file: string, checks: ManifestChecks = {}): Manifest {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (document.errors.length > 0) {
    throw new ManifestError(
      file,
      document.errors.map((error) => ({
        path: [],
        message: `YAML syntax: ${error.message.split('\n')[0]}`,
        line: lineCounter.linePos(error.pos[0]).line,
      })),
    );
  }
  const value: unknown = document.toJS();
  let issues: ManifestIssue[] = [...handWrittenIdEnums(value), ...expandEnumFrom(value), ...expandLimits(value)];
  if (issues.length > 0) {
    // reported below with their lines
  } else if (!validateStructure(value)) {
    issues = (validateStructure.errors ?? [])
      .filter((error) => error.keyword !== 'oneOf' && error.keyword !== 'if')
      .map((error) => {
        const path = toFieldPath(error.instancePath);
        const extra = error.params as { additionalProperty?: string; missingProperty?: string };
        if (extra.additionalProperty) return { path, message: `unknown field "${extra.additionalProperty}"` };
        if (extra.missingProperty) return { path, message: `missing required field "${extra.missingProperty}"` };
        return { path, message: error.message ?? 'is not valid' };
      });
  } else {
    issues = checkManifest(value as unknown as Manifest);
    if (issues.length === 0 && checks.more) issues = checks.more(value as unknown as Manifest);
  }
  if (issues.length > 0) {
    throw new ManifestError(
      file,
      dedupe(issues).map((issue) => ({
        ...issue,
        line: lineOf(document, lineCounter, issue.path),
        tool: toolNameAt(value, issue.path),
      })),
    );
  }
  return value as Manifest;
}

function dedupe(issues: ManifestIssue[]): ManifestIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path.join('/')}|${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function loadManifest(path: string, checks: ManifestChecks = {}): Manifest {
  return parseManifest(readFileSync(path, 'utf8'), basename(path), checks);
}
