/**
 * Reading one side of a diff: a file path, or a git blob `<ref>:<path>` read with `git show`.
 * JSON or YAML; OpenAPI 3.0 or 3.1. `$ref`s are resolved lazily by `Resolver`, so a cyclic schema
 * costs nothing here; the walker stops at cycles.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** Unusable input: the command exits 2 with this message. */
export class InputError extends Error {}

type Json = unknown;

export interface Document {
  /** A file path, or `git:<ref>:<path>` for a blob; external refs are relative to it. */
  uri: string;
  root: Json;
}

export interface Handle {
  node: Json;
  doc: Document;
  /** The last `$ref` followed to reach the node, as written (for example `#/components/schemas/Pet`). */
  ref?: string;
}

export interface LoadedSpec {
  label: string;
  /** The file the spec came from, when it is a file (for annotations). */
  file?: string;
  resolver: Resolver;
  root: Handle;
  version: string;
}

function parseText(text: string, label: string): Json {
  const trimmed = text.trimStart();
  try {
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) return JSON.parse(text);
    return parseYaml(text, { maxAliasCount: -1 });
  } catch (error) {
    throw new InputError(`${label} does not parse as JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

function isGitSpec(spec: string): boolean {
  return /^[^:\\/][^:]*:./.test(spec) && !/^[A-Za-z]:[\\/]/.test(spec);
}

function gitShow(object: string, cwd: string): string {
  try {
    return execFileSync('git', ['show', object], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr =
      String((error as { stderr?: unknown }).stderr ?? '')
        .trim()
        .split('\n')[0] || (error as Error).message;
    throw new InputError(`cannot read ${object} from git: ${stderr}`);
  }
}

/** Reads documents (the spec and any file it refers to) and follows `$ref`s. */
export class Resolver {
  private readonly docs = new Map<string, Document>();

  constructor(private readonly cwd: string) {}

  add(doc: Document): void {
    this.docs.set(doc.uri, doc);
  }

  private load(uri: string): Document {
    const known = this.docs.get(uri);
    if (known) return known;
    let text: string;
    if (uri.startsWith('git:')) text = gitShow(uri.slice(4), this.cwd);
    else {
      if (!existsSync(uri)) throw new InputError(`a $ref points to ${uri}, which does not exist`);
      text = readFileSync(uri, 'utf8');
    }
    const doc = { uri, root: parseText(text, uri) };
    this.docs.set(uri, doc);
    return doc;
  }

  private documentFor(from: Document, target: string): Document {
    if (target === '') return from;
    if (from.uri.startsWith('git:')) {
      const rest = from.uri.slice(4);
      const colon = rest.indexOf(':');
      const ref = rest.slice(0, colon);
      const path = posix.normalize(posix.join(posix.dirname(rest.slice(colon + 1)), target));
      return this.load(`git:${ref}:${path}`);
    }
    return this.load(resolve(dirname(from.uri), target));
  }

  /** Follows `$ref` chains; a chain that loops ends at an empty schema. */
  deref(handle: Handle): Handle {
    let current = handle;
    const seen = new Set<string>();
    for (;;) {
      const node = current.node as { $ref?: unknown } | null;
      if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return current;
      const ref = node.$ref;
      const [file = '', fragment = ''] = ref.split('#', 2) as [string, string?];
      const doc = this.documentFor(current.doc, file);
      const key = `${doc.uri}#${fragment}`;
      if (seen.has(key)) return { node: {}, doc, ref };
      seen.add(key);
      current = { node: pointer(doc.root, fragment, ref), doc, ref };
    }
  }
}

function pointer(root: Json, fragment: string, ref: string): Json {
  if (fragment === '' || fragment === '/') return root;
  let node: Json = root;
  for (const raw of fragment.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!node || typeof node !== 'object' || !(key in (node as object))) {
      throw new InputError(`$ref ${ref} points to nothing`);
    }
    node = (node as Record<string, Json>)[key];
  }
  return node;
}

function check(root: Json, label: string): string {
  if (!root || typeof root !== 'object' || Array.isArray(root)) throw new InputError(`${label} is not an OpenAPI document (not an object)`);
  const version = (root as { openapi?: unknown }).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version)) {
    throw new InputError(`${label} is not an OpenAPI 3.0 or 3.1 document (openapi: ${JSON.stringify(version ?? null)})`);
  }
  return version;
}

/** Reads one side: an existing file, else `<ref>:<path>` from git (relative to `cwd`). */
export function loadSpec(spec: string, cwd = process.cwd()): LoadedSpec {
  const resolver = new Resolver(cwd);
  const path = resolve(cwd, spec);
  let doc: Document;
  let file: string | undefined;
  if (existsSync(path) && statSync(path).isFile()) {
    doc = { uri: path, root: parseText(readFileSync(path, 'utf8'), spec) };
    file = spec;
  } else if (isGitSpec(spec)) {
    const colon = spec.indexOf(':');
    doc = { uri: `git:${spec.slice(0, colon)}:${posix.normalize(spec.slice(colon + 1))}`, root: parseText(gitShow(spec, cwd), spec) };
  } else {
    throw new InputError(`${spec}: no such file (for a git object write <ref>:<path>, for example HEAD~1:generated/openapi.json)`);
  }
  resolver.add(doc);
  const version = check(doc.root, spec);
  return { label: spec, ...(file ? { file } : {}), resolver, root: { node: doc.root, doc }, version };
}

/** A spec given as an object (tests and benchmarks). */
export function specFromObject(root: Json, label = 'spec', cwd = process.cwd()): LoadedSpec {
  const resolver = new Resolver(cwd);
  const doc = { uri: resolve(cwd, `${label}.json`), root };
  resolver.add(doc);
  return { label, resolver, root: { node: root, doc }, version: check(root, label) };
}
