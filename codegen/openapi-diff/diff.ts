/**
 * The diff engine: walks two OpenAPI documents side by side and reports every change with a rule id
 * from rules.ts, its level, the operation and a JSON path. Requests and responses are judged in
 * opposite directions: what a client sends may only get looser, what it receives may only get tighter.
 */
import type { Handle, LoadedSpec, Resolver } from './load.ts';
import { LIMITS, RULES_BY_ID, SUBSCHEMA_KEYWORDS, type Level, type SchemaPrefix } from './rules.ts';

export interface Change {
  id: string;
  level: Level;
  /** `METHOD /path`, absent for document-wide changes. */
  operation?: string;
  /** Where the change is, as a JSON path through the document (following `$ref`s). */
  path: string;
  message: string;
}

export interface DiffOptions {
  /** The date sunset dates are compared with (default: now). */
  now?: Date;
}

type Obj = Record<string, unknown>;
type Direction = 'request' | 'response';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const STABILITY = ['draft', 'alpha', 'beta', 'stable'];

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** JSON path segment: `.name` or `['odd/name']`. */
function jp(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}['${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}']`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObj(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

let nextId = 1;
const ids = new WeakMap<object, number>();
function identity(value: unknown): number {
  if (!value || typeof value !== 'object') return 0;
  let id = ids.get(value);
  if (id === undefined) ids.set(value, (id = nextId++));
  return id;
}

interface Side {
  resolver: Resolver;
}

/** A schema as the checks see it: `$ref`s followed, nullability and type lists normalised. */
interface View {
  h: Handle;
  s: Obj;
  types: Set<string> | null;
  nullable: boolean;
  /** The keyword (oneOf/anyOf) that only carried nullability or a list of plain types. */
  absorbed?: 'oneOf' | 'anyOf';
}

interface SchemaContext {
  dir: Direction;
  op: string;
  prefix: SchemaPrefix;
  loc: 'body' | 'parameter' | 'header';
  paramIn?: string;
  /** The media type is not JSON: its values travel as text. */
  loose?: boolean;
  path: string;
  stack: Set<string>;
  depth: number;
}

function isNullSchema(node: unknown): boolean {
  if (!isObj(node)) return false;
  if (node.type === 'null') return true;
  if (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === 'null') return true;
  if ('const' in node && node.const === null) return true;
  return Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null;
}

function isJsonMedia(type: string): boolean {
  const bare = type.split(';')[0]!.trim().toLowerCase();
  return bare === 'application/json' || bare.endsWith('+json') || bare === '*/*' || bare === 'application/*';
}

const PLAIN_TYPE_KEYS = new Set(['type', 'description', 'title', 'format']);

export class Differ {
  readonly changes: Change[] = [];
  /** Schema pairs (in one context) already found identical. */
  private readonly clean = new Set<string>();
  /** How often the walk stopped at a cycle; a subtree cut short is not remembered as clean. */
  private cuts = 0;
  private readonly now: number;
  private readonly b: Side;
  private readonly r: Side;

  constructor(
    private readonly base: LoadedSpec,
    private readonly revision: LoadedSpec,
    options: DiffOptions = {},
  ) {
    this.now = (options.now ?? new Date()).getTime();
    this.b = { resolver: base.resolver };
    this.r = { resolver: revision.resolver };
  }

  private emit(id: string, operation: string | undefined, path: string, message: string): void {
    const rule = RULES_BY_ID.get(id);
    if (!rule) throw new Error(`openapi-diff: rule ${id} is not in the policy table`);
    this.changes.push({ id, level: rule.level, ...(operation ? { operation } : {}), path, message });
  }

  private deref(side: Side, h: Handle): Handle {
    return side.resolver.deref(h);
  }

  private child(h: Handle, key: string | number): Handle | undefined {
    const node = h.node as Record<string | number, unknown> | unknown[] | null;
    if (!node || typeof node !== 'object') return undefined;
    const value = (node as Record<string | number, unknown>)[key];
    return value === undefined ? undefined : { node: value, doc: h.doc };
  }

  private derefChild(side: Side, h: Handle | undefined, key: string | number): Handle | undefined {
    if (!h) return undefined;
    const c = this.child(h, key);
    return c ? this.deref(side, c) : undefined;
  }

  private keys(h: Handle | undefined): string[] {
    return h && isObj(h.node) ? Object.keys(h.node) : [];
  }

  run(): Change[] {
    const bRoot = this.base.root;
    const rRoot = this.revision.root;
    this.diffPaths(bRoot, rRoot);
    this.diffWebhooks(bRoot, rRoot);
    this.diffGlobalSecurity(bRoot, rRoot);
    this.diffSecuritySchemes(bRoot, rRoot);
    return this.changes;
  }

  // ---------------------------------------------------------------- paths

  private diffPaths(bRoot: Handle, rRoot: Handle): void {
    const bPaths = this.derefChild(this.b, bRoot, 'paths');
    const rPaths = this.derefChild(this.r, rRoot, 'paths');
    const normal = (template: string) => template.replace(/\{[^}]*\}/g, '{}');
    const bByKey = new Map<string, string>();
    for (const template of this.keys(bPaths)) bByKey.set(normal(template), template);
    const matched = new Set<string>();
    const bTemplates = new Set(this.keys(bPaths));
    for (const rTemplate of this.keys(rPaths)) {
      const rItem = this.derefChild(this.r, rPaths, rTemplate)!;
      const bTemplate = bTemplates.has(rTemplate) ? rTemplate : bByKey.get(normal(rTemplate));
      const path = jp('$.paths', rTemplate);
      if (bTemplate === undefined || matched.has(bTemplate)) {
        for (const method of METHODS) {
          if (this.child(rItem, method)) this.emit('endpoint-added', `${method.toUpperCase()} ${rTemplate}`, jp(path, method), 'operation added');
        }
        continue;
      }
      matched.add(bTemplate);
      const bItem = this.derefChild(this.b, bPaths, bTemplate)!;
      for (const method of METHODS) {
        const bOp = this.derefChild(this.b, bItem, method);
        const rOp = this.derefChild(this.r, rItem, method);
        const operation = `${method.toUpperCase()} ${rTemplate}`;
        if (!bOp && rOp) this.emit('endpoint-added', operation, jp(path, method), 'operation added');
        else if (bOp && !rOp) this.removed(bOp, `${method.toUpperCase()} ${bTemplate}`, jp(jp('$.paths', bTemplate), method), 'api');
        else if (bOp && rOp) {
          this.diffOperation({ operation, path: jp(path, method), bOp, rOp, bItem, rItem, bTemplate, rTemplate, bRoot, rRoot });
        }
      }
    }
    for (const bTemplate of this.keys(bPaths)) {
      if (matched.has(bTemplate)) continue;
      const bItem = this.derefChild(this.b, bPaths, bTemplate)!;
      for (const method of METHODS) {
        const bOp = this.derefChild(this.b, bItem, method);
        if (bOp) this.removed(bOp, `${method.toUpperCase()} ${bTemplate}`, jp(jp('$.paths', bTemplate), method), 'api-path');
      }
    }
  }

  private sunsetInFuture(node: Obj): boolean {
    const sunset = node['x-sunset'];
    if (typeof sunset !== 'string' && !(sunset instanceof Date)) return false;
    const time = sunset instanceof Date ? sunset.getTime() : Date.parse(sunset);
    return Number.isFinite(time) && time > this.now;
  }

  private removed(bOp: Handle, operation: string, path: string, kind: 'api' | 'api-path'): void {
    const op = bOp.node as Obj;
    const stability = op['x-stability-level'];
    const deprecated = op.deprecated === true || stability === 'draft' || stability === 'alpha';
    if (!deprecated) this.emit(`${kind}-removed-without-deprecation`, operation, path, 'operation removed without deprecation');
    else if (this.sunsetInFuture(op))
      this.emit(`${kind}-removed-before-sunset`, operation, path, `operation removed before its sunset date ${String(op['x-sunset'])}`);
    else this.emit(`${kind}-removed-with-deprecation`, operation, path, 'deprecated operation removed');
  }

  private diffWebhooks(bRoot: Handle, rRoot: Handle): void {
    const bHooks = this.derefChild(this.b, bRoot, 'webhooks');
    const rHooks = this.derefChild(this.r, rRoot, 'webhooks');
    const bKeys = this.keys(bHooks);
    const rKeys = this.keys(rHooks);
    for (const key of bKeys) if (!rKeys.includes(key)) this.emit('webhook-removed', undefined, jp('$.webhooks', key), `webhook ${key} removed`);
    for (const key of rKeys) if (!bKeys.includes(key)) this.emit('webhook-added', undefined, jp('$.webhooks', key), `webhook ${key} added`);
  }

  // ---------------------------------------------------------------- operations

  private diffOperation(o: {
    operation: string;
    path: string;
    bOp: Handle;
    rOp: Handle;
    bItem: Handle;
    rItem: Handle;
    bTemplate: string;
    rTemplate: string;
    bRoot: Handle;
    rRoot: Handle;
  }): void {
    const b = o.bOp.node as Obj;
    const r = o.rOp.node as Obj;
    const { operation, path } = o;
    if (b.deprecated !== true && r.deprecated === true) {
      if (r['x-sunset'] !== undefined)
        this.emit('endpoint-deprecated-with-sunset', operation, jp(path, 'deprecated'), `operation deprecated, sunset ${String(r['x-sunset'])}`);
      else this.emit('endpoint-deprecated', operation, jp(path, 'deprecated'), 'operation deprecated');
    } else if (b.deprecated === true && r.deprecated !== true) {
      this.emit('endpoint-reactivated', operation, jp(path, 'deprecated'), 'operation no longer deprecated');
    } else if (b.deprecated === true && r.deprecated === true && b['x-sunset'] !== undefined && r['x-sunset'] === undefined) {
      this.emit('sunset-deleted', operation, jp(path, 'x-sunset'), `sunset date ${String(b['x-sunset'])} removed from a deprecated operation`);
    }
    const bStability = b['x-stability-level'];
    const rStability = r['x-stability-level'];
    if (rStability !== undefined && !STABILITY.includes(String(rStability))) {
      this.emit(
        'api-invalid-stability-level',
        operation,
        jp(path, 'x-stability-level'),
        `x-stability-level ${show(rStability)} is not one of ${STABILITY.join(', ')}`,
      );
    } else if (
      bStability !== undefined &&
      rStability !== undefined &&
      STABILITY.indexOf(String(rStability)) < STABILITY.indexOf(String(bStability)) &&
      STABILITY.includes(String(bStability))
    ) {
      this.emit('api-stability-decreased', operation, jp(path, 'x-stability-level'), `x-stability-level ${String(bStability)} -> ${String(rStability)}`);
    }
    if (b.operationId !== undefined && b.operationId !== r.operationId) {
      this.emit(
        'api-operation-id-removed',
        operation,
        jp(path, 'operationId'),
        `operationId ${show(b.operationId)} removed${r.operationId === undefined ? '' : ` (now ${show(r.operationId)})`}`,
      );
    }
    if (b.operationId === undefined && r.operationId !== undefined)
      this.emit('api-operation-id-added', operation, jp(path, 'operationId'), `operationId ${show(r.operationId)} added`);
    const bTags = Array.isArray(b.tags) ? b.tags.map(String) : [];
    const rTags = Array.isArray(r.tags) ? r.tags.map(String) : [];
    for (const tag of bTags) if (!rTags.includes(tag)) this.emit('api-tag-removed', operation, jp(path, 'tags'), `tag ${tag} removed`);
    for (const tag of rTags) if (!bTags.includes(tag)) this.emit('api-tag-added', operation, jp(path, 'tags'), `tag ${tag} added`);
    this.diffParameters(o);
    this.diffRequestBody(operation, path, o.bOp, o.rOp);
    this.diffResponses(operation, path, o.bOp, o.rOp);
    this.diffOperationSecurity(operation, path, o.bOp, o.rOp, o.bRoot, o.rRoot);
  }

  // ---------------------------------------------------------------- parameters

  private parameters(side: Side, item: Handle, op: Handle, template: string): Map<string, { h: Handle; fromPath: boolean; path: string }> {
    const names = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
    const out = new Map<string, { h: Handle; fromPath: boolean; path: string }>();
    for (const [owner, fromPath] of [
      [item, true],
      [op, false],
    ] as const) {
      const list = this.child(owner, 'parameters');
      if (!list || !Array.isArray(list.node)) continue;
      list.node.forEach((_, index) => {
        const h = this.deref(side, this.child(list, index)!);
        const p = h.node as Obj;
        if (!isObj(p)) return;
        const where = String(p.in);
        const name = String(p.name);
        const key = where === 'path' ? `path#${names.indexOf(name)}` : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
        out.set(key, { h, fromPath, path: `parameters[${where}=${name}]` });
      });
    }
    return out;
  }

  private parameterSchema(side: Side, h: Handle): Handle | undefined {
    const direct = this.child(h, 'schema');
    if (direct) return direct;
    const content = this.derefChild(side, h, 'content');
    const first = this.keys(content)[0];
    return first === undefined ? undefined : this.child(this.derefChild(side, content, first)!, 'schema');
  }

  private diffParameters(o: {
    operation: string;
    path: string;
    bOp: Handle;
    rOp: Handle;
    bItem: Handle;
    rItem: Handle;
    bTemplate: string;
    rTemplate: string;
  }): void {
    const bParams = this.parameters(this.b, o.bItem, o.bOp, o.bTemplate);
    const rParams = this.parameters(this.r, o.rItem, o.rOp, o.rTemplate);
    const { operation } = o;
    for (const [key, bp] of bParams) {
      if (rParams.has(key)) continue;
      const p = bp.h.node as Obj;
      const path = `${o.path}.${bp.path}`;
      const label = `${String(p.in)} parameter ${String(p.name)}`;
      if (p.deprecated !== true) this.emit('request-parameter-removed', operation, path, `${label} removed`);
      else if (this.sunsetInFuture(p))
        this.emit('request-parameter-removed-before-sunset', operation, path, `${label} removed before its sunset date ${String(p['x-sunset'])}`);
      else this.emit('request-parameter-removed-with-deprecation', operation, path, `deprecated ${label} removed`);
    }
    for (const [key, rp] of rParams) {
      const p = rp.h.node as Obj;
      const path = `${o.path}.${rp.path}`;
      const label = `${String(p.in)} parameter ${String(p.name)}`;
      const bp = bParams.get(key);
      if (!bp) {
        if (p.in === 'path') continue;
        const required = p.required === true;
        if (rp.fromPath) {
          this.emit(
            required ? 'new-required-request-default-parameter-to-existing-path' : 'new-optional-request-default-parameter-to-existing-path',
            operation,
            path,
            `${required ? 'required' : 'optional'} path-level ${label} added`,
          );
        } else {
          this.emit(
            required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
            operation,
            path,
            `${required ? 'required' : 'optional'} ${label} added`,
          );
        }
        continue;
      }
      const q = bp.h.node as Obj;
      if (q.required !== true && p.required === true && p.in !== 'path')
        this.emit('request-parameter-became-required', operation, jp(path, 'required'), `${label} became required`);
      if (q.required === true && p.required !== true)
        this.emit('request-parameter-became-optional', operation, jp(path, 'required'), `${label} became optional`);
      if (q.deprecated !== true && p.deprecated === true) this.emit('request-parameter-deprecated', operation, jp(path, 'deprecated'), `${label} deprecated`);
      if (q.deprecated === true && p.deprecated !== true)
        this.emit('request-parameter-reactivated', operation, jp(path, 'deprecated'), `${label} no longer deprecated`);
      const bs = this.parameterSchema(this.b, bp.h);
      const rs = this.parameterSchema(this.r, rp.h);
      if (bs && rs) {
        this.diffSchema(
          {
            dir: 'request',
            op: operation,
            prefix: 'request-parameter',
            loc: 'parameter',
            paramIn: String(p.in),
            path: jp(path, 'schema'),
            stack: new Set(),
            depth: 0,
          },
          bs,
          rs,
        );
      }
    }
  }

  // ---------------------------------------------------------------- request bodies

  private diffRequestBody(operation: string, path: string, bOp: Handle, rOp: Handle): void {
    const bBody = this.derefChild(this.b, bOp, 'requestBody');
    const rBody = this.derefChild(this.r, rOp, 'requestBody');
    const bodyPath = jp(path, 'requestBody');
    if (!bBody && !rBody) return;
    if (!bBody) {
      const required = (rBody!.node as Obj).required === true;
      this.emit(
        required ? 'request-body-added-required' : 'request-body-added-optional',
        operation,
        bodyPath,
        `${required ? 'required' : 'optional'} request body added`,
      );
      return;
    }
    if (!rBody) {
      this.emit('request-body-removed', operation, bodyPath, 'request body removed');
      return;
    }
    const bRequired = (bBody.node as Obj).required === true;
    const rRequired = (rBody.node as Obj).required === true;
    if (!bRequired && rRequired) this.emit('request-body-became-required', operation, jp(bodyPath, 'required'), 'request body became required');
    if (bRequired && !rRequired) this.emit('request-body-became-optional', operation, jp(bodyPath, 'required'), 'request body became optional');
    const bContent = this.derefChild(this.b, bBody, 'content');
    const rContent = this.derefChild(this.r, rBody, 'content');
    const contentPath = jp(bodyPath, 'content');
    for (const type of this.keys(bContent)) {
      if (!this.keys(rContent).includes(type)) this.emit('request-body-media-type-removed', operation, jp(contentPath, type), `media type ${type} removed`);
    }
    for (const type of this.keys(rContent)) {
      const mediaPath = jp(contentPath, type);
      if (!this.keys(bContent).includes(type)) {
        this.emit('request-body-media-type-added', operation, mediaPath, `media type ${type} added`);
        continue;
      }
      const bs = this.child(this.derefChild(this.b, bContent, type)!, 'schema');
      const rs = this.child(this.derefChild(this.r, rContent, type)!, 'schema');
      if (!bs && rs) this.emit('request-body-media-type-schema-added', operation, jp(mediaPath, 'schema'), `schema added to ${type}`);
      else if (bs && !rs) this.emit('request-body-media-type-schema-removed', operation, jp(mediaPath, 'schema'), `schema removed from ${type}`);
      else if (bs && rs)
        this.diffSchema(
          {
            dir: 'request',
            op: operation,
            prefix: 'request-body',
            loc: 'body',
            loose: !isJsonMedia(type),
            path: jp(mediaPath, 'schema'),
            stack: new Set(),
            depth: 0,
          },
          bs,
          rs,
        );
    }
  }

  // ---------------------------------------------------------------- responses

  private diffResponses(operation: string, path: string, bOp: Handle, rOp: Handle): void {
    const bResponses = this.derefChild(this.b, bOp, 'responses');
    const rResponses = this.derefChild(this.r, rOp, 'responses');
    const responsesPath = jp(path, 'responses');
    const success = (status: string) => /^2/.test(status);
    const bKeys = this.keys(bResponses);
    const rKeys = this.keys(rResponses);
    for (const status of bKeys) {
      if (rKeys.includes(status)) continue;
      this.emit(
        success(status) ? 'response-success-status-removed' : 'response-non-success-status-removed',
        operation,
        jp(responsesPath, status),
        `response ${status} removed`,
      );
    }
    for (const status of rKeys) {
      const statusPath = jp(responsesPath, status);
      if (!bKeys.includes(status)) {
        this.emit(success(status) ? 'response-success-status-added' : 'response-non-success-status-added', operation, statusPath, `response ${status} added`);
        continue;
      }
      const bResponse = this.derefChild(this.b, bResponses, status)!;
      const rResponse = this.derefChild(this.r, rResponses, status)!;
      const bContent = this.derefChild(this.b, bResponse, 'content');
      const rContent = this.derefChild(this.r, rResponse, 'content');
      for (const type of this.keys(bContent)) {
        if (!this.keys(rContent).includes(type))
          this.emit('response-media-type-removed', operation, jp(jp(statusPath, 'content'), type), `media type ${type} removed from response ${status}`);
      }
      for (const type of this.keys(rContent)) {
        const mediaPath = jp(jp(statusPath, 'content'), type);
        if (!this.keys(bContent).includes(type)) {
          this.emit('response-media-type-added', operation, mediaPath, `media type ${type} added to response ${status}`);
          continue;
        }
        const bs = this.child(this.derefChild(this.b, bContent, type)!, 'schema');
        const rs = this.child(this.derefChild(this.r, rContent, type)!, 'schema');
        if (!bs && rs) this.emit('response-body-media-type-schema-added', operation, jp(mediaPath, 'schema'), `schema added to ${type} of response ${status}`);
        else if (bs && !rs)
          this.emit('response-body-media-type-schema-removed', operation, jp(mediaPath, 'schema'), `schema removed from ${type} of response ${status}`);
        else if (bs && rs)
          this.diffSchema(
            {
              dir: 'response',
              op: operation,
              prefix: 'response-body',
              loc: 'body',
              loose: !isJsonMedia(type),
              path: jp(mediaPath, 'schema'),
              stack: new Set(),
              depth: 0,
            },
            bs,
            rs,
          );
      }
      this.diffHeaders(operation, jp(statusPath, 'headers'), bResponse, rResponse, status);
    }
  }

  private diffHeaders(operation: string, path: string, bResponse: Handle, rResponse: Handle, status: string): void {
    const bHeaders = this.derefChild(this.b, bResponse, 'headers');
    const rHeaders = this.derefChild(this.r, rResponse, 'headers');
    const bMap = new Map(this.keys(bHeaders).map((name) => [name.toLowerCase(), name]));
    const rMap = new Map(this.keys(rHeaders).map((name) => [name.toLowerCase(), name]));
    for (const [lower, name] of bMap) {
      if (rMap.has(lower)) continue;
      const header = this.derefChild(this.b, bHeaders, name)!.node as Obj;
      this.emit(
        header.required === true ? 'required-response-header-removed' : 'optional-response-header-removed',
        operation,
        jp(path, name),
        `header ${name} removed from response ${status}`,
      );
    }
    for (const [lower, name] of rMap) {
      const headerPath = jp(path, name);
      const bName = bMap.get(lower);
      if (bName === undefined) {
        this.emit('response-header-added', operation, headerPath, `header ${name} added to response ${status}`);
        continue;
      }
      const bh = this.derefChild(this.b, bHeaders, bName)!;
      const rh = this.derefChild(this.r, rHeaders, name)!;
      const bRequired = (bh.node as Obj).required === true;
      const rRequired = (rh.node as Obj).required === true;
      if (bRequired && !rRequired)
        this.emit('response-header-became-optional', operation, jp(headerPath, 'required'), `header ${name} of response ${status} became optional`);
      if (!bRequired && rRequired)
        this.emit('response-header-became-required', operation, jp(headerPath, 'required'), `header ${name} of response ${status} became required`);
      const bs = this.parameterSchema(this.b, bh);
      const rs = this.parameterSchema(this.r, rh);
      if (bs && rs)
        this.diffSchema(
          { dir: 'response', op: operation, prefix: 'response-header', loc: 'header', path: jp(headerPath, 'schema'), stack: new Set(), depth: 0 },
          bs,
          rs,
        );
    }
  }

  // ---------------------------------------------------------------- security

  private requirements(h: Handle | undefined): Map<string, Set<string>> | undefined {
    if (!h || !Array.isArray(h.node)) return undefined;
    const out = new Map<string, Set<string>>();
    for (const requirement of h.node) {
      if (!isObj(requirement)) continue;
      for (const [scheme, scopes] of Object.entries(requirement)) {
        const set = out.get(scheme) ?? new Set<string>();
        for (const scope of Array.isArray(scopes) ? scopes : []) set.add(String(scope));
        out.set(scheme, set);
      }
      if (Object.keys(requirement).length === 0) out.set('', new Set());
    }
    return out;
  }

  private isPublic(requirements: Map<string, Set<string>> | undefined): boolean {
    return !requirements || requirements.size === 0 || requirements.has('');
  }

  private compareRequirements(
    b: Map<string, Set<string>>,
    r: Map<string, Set<string>>,
    kind: 'api' | 'api-global',
    operation: string | undefined,
    path: string,
  ): void {
    for (const [scheme, scopes] of b) {
      if (scheme === '') continue;
      const rScopes = r.get(scheme);
      if (!rScopes) {
        this.emit(`${kind}-security-removed`, operation, path, `security requirement ${scheme} removed`);
        continue;
      }
      for (const scope of scopes)
        if (!rScopes.has(scope)) this.emit(`${kind}-security-scope-removed`, operation, path, `scope ${scope} removed from ${scheme}`);
      for (const scope of rScopes) if (!scopes.has(scope)) this.emit(`${kind}-security-scope-added`, operation, path, `scope ${scope} added to ${scheme}`);
    }
    for (const scheme of r.keys()) {
      if (scheme !== '' && !b.has(scheme)) this.emit(`${kind}-security-added`, operation, path, `security requirement ${scheme} added`);
    }
  }

  private diffGlobalSecurity(bRoot: Handle, rRoot: Handle): void {
    const b = this.requirements(this.child(bRoot, 'security')) ?? new Map();
    const r = this.requirements(this.child(rRoot, 'security')) ?? new Map();
    this.compareRequirements(b, r, 'api-global', undefined, '$.security');
  }

  private diffOperationSecurity(operation: string, path: string, bOp: Handle, rOp: Handle, bRoot: Handle, rRoot: Handle): void {
    const bOwn = this.requirements(this.child(bOp, 'security'));
    const rOwn = this.requirements(this.child(rOp, 'security'));
    const bEffective = bOwn ?? this.requirements(this.child(bRoot, 'security'));
    const rEffective = rOwn ?? this.requirements(this.child(rRoot, 'security'));
    const securityPath = jp(path, 'security');
    if (this.isPublic(bEffective) && !this.isPublic(rEffective)) {
      this.emit(
        'api-security-added-to-public-endpoint',
        operation,
        securityPath,
        `operation needed no credentials; it now requires ${[...rEffective!.keys()].join(' or ')}`,
      );
      return;
    }
    if (!bOwn && !rOwn) return;
    this.compareRequirements(bEffective ?? new Map(), rEffective ?? new Map(), 'api', operation, securityPath);
  }

  private diffSecuritySchemes(bRoot: Handle, rRoot: Handle): void {
    const bSchemes = this.derefChild(this.b, this.derefChild(this.b, bRoot, 'components'), 'securitySchemes');
    const rSchemes = this.derefChild(this.r, this.derefChild(this.r, rRoot, 'components'), 'securitySchemes');
    const bKeys = this.keys(bSchemes);
    const rKeys = this.keys(rSchemes);
    const path = '$.components.securitySchemes';
    for (const name of bKeys)
      if (!rKeys.includes(name)) this.emit('api-security-component-removed', undefined, jp(path, name), `security scheme ${name} removed`);
    for (const name of rKeys) {
      if (!bKeys.includes(name)) {
        this.emit('api-security-component-added', undefined, jp(path, name), `security scheme ${name} added`);
        continue;
      }
      const b = this.derefChild(this.b, bSchemes, name)!.node as Obj;
      const r = this.derefChild(this.r, rSchemes, name)!.node as Obj;
      if (b.type !== r.type)
        this.emit(
          'api-security-component-type-changed',
          undefined,
          jp(jp(path, name), 'type'),
          `security scheme ${name} type ${show(b.type)} -> ${show(r.type)}`,
        );
      else if (b.type === 'apiKey' && (b.in !== r.in || String(b.name).toLowerCase() !== String(r.name).toLowerCase())) {
        this.emit(
          'api-security-component-api-key-changed',
          undefined,
          jp(path, name),
          `security scheme ${name}: key ${String(b.in)} ${show(b.name)} -> ${String(r.in)} ${show(r.name)}`,
        );
      }
    }
  }

  // ---------------------------------------------------------------- schemas

  private view(side: Side, h: Handle): View {
    const d = this.deref(side, h);
    const s: Obj = isObj(d.node) ? d.node : {};
    let nullable = s.nullable === true;
    let types: Set<string> | null = null;
    if (Array.isArray(s.type)) {
      types = new Set(s.type.map(String).filter((t) => t !== 'null'));
      if (s.type.includes('null')) nullable = true;
      if (types.size === 0) types = null;
    } else if (typeof s.type === 'string') {
      if (s.type === 'null') nullable = true;
      else types = new Set([s.type]);
    }
    for (const kw of ['oneOf', 'anyOf'] as const) {
      const list = s[kw];
      if (!Array.isArray(list) || list.length === 0) continue;
      const branches = list.map((_, index) => this.deref(side, this.child(this.child(d, kw)!, index)!));
      const nulls = branches.filter((branch) => isNullSchema(branch.node));
      const rest = branches.filter((branch) => !isNullSchema(branch.node));
      if (nulls.length > 0 && rest.length === 1 && s.type === undefined) {
        // the wrapper only carries nullability: judge the wrapped schema (its own oneOf/anyOf included)
        return { ...this.view(side, rest[0]!), nullable: true };
      }
      if (
        s.type === undefined &&
        rest.length > 1 &&
        rest.every((branch) => isObj(branch.node) && typeof branch.node.type === 'string' && Object.keys(branch.node).every((key) => PLAIN_TYPE_KEYS.has(key)))
      ) {
        return { h: d, s, types: new Set(rest.map((branch) => String((branch.node as Obj).type))), nullable: nullable || nulls.length > 0, absorbed: kw };
      }
      if (nulls.length > 0) nullable = true;
    }
    return { h: d, s, types, nullable };
  }

  private id(ctx: SchemaContext, suffix: string): string {
    return `${ctx.prefix}-${suffix}`;
  }

  private childContext(ctx: SchemaContext, path: string): SchemaContext {
    const prefix: SchemaPrefix = ctx.loc === 'parameter' ? 'request-parameter-property' : ctx.dir === 'request' ? 'request-property' : 'response-property';
    return { ...ctx, prefix, path, depth: ctx.depth + 1 };
  }

  private diffSchema(ctx: SchemaContext, bh: Handle, rh: Handle): void {
    const b = this.view(this.b, bh);
    const r = this.view(this.r, rh);
    const key = `${identity(b.h.node)}|${identity(r.h.node)}|${ctx.dir}|${ctx.prefix}|${ctx.loc}|${ctx.paramIn ?? ''}|${ctx.loose ?? false}`;
    if (this.clean.has(key)) return;
    if (ctx.stack.has(key) || ctx.depth > 64) {
      this.cuts++;
      return;
    }
    const changes = this.changes.length;
    const cuts = this.cuts;
    ctx.stack.add(key);
    try {
      this.compareSchemas(ctx, b, r);
    } finally {
      ctx.stack.delete(key);
    }
    // a pair of schemas that showed no change (and was walked to the end) shows none anywhere else
    if (this.changes.length === changes && this.cuts === cuts) this.clean.add(key);
  }

  private compareSchemas(ctx: SchemaContext, b: View, r: View): void {
    const { op, path, dir } = ctx;
    const emit = (suffix: string, message: string, at = path) => this.emit(this.id(ctx, suffix), op, at, message);
    // nullability
    if (!b.nullable && r.nullable) emit('became-nullable', 'became nullable');
    if (b.nullable && !r.nullable) emit('became-not-nullable', 'became not nullable');
    // type
    const typeChanged = this.compareTypes(ctx, b, r, emit);
    if (ctx.loc === 'header') return;
    const bs = b.s;
    const rs = r.s;
    // format
    if (!typeChanged && bs.format !== rs.format) {
      if (bs.format === undefined) emit('format-added', `format ${show(rs.format)} added`, jp(path, 'format'));
      else if (rs.format === undefined) emit('format-removed', `format ${show(bs.format)} removed`, jp(path, 'format'));
      else emit('format-changed', `format ${show(bs.format)} -> ${show(rs.format)}`, jp(path, 'format'));
    }
    this.compareValues(ctx, b, r, emit);
    this.compareLimits(ctx, bs, rs, emit);
    // pattern ('' matches anything, like no pattern)
    const bp = bs.pattern === '' ? undefined : bs.pattern;
    const rp = rs.pattern === '' ? undefined : rs.pattern;
    if (bp !== rp) {
      const at = jp(path, 'pattern');
      if (bp === undefined) emit('pattern-added', `pattern ${show(rp)} added`, at);
      else if (rp === undefined) emit('pattern-removed', `pattern ${show(bp)} removed`, at);
      else if (dir === 'request' && /^\^?(\.\*|\[\\s\\S\]\*)\$?$/.test(String(rp)))
        emit('pattern-generalized', `pattern ${show(bp)} -> ${show(rp)} (matches anything)`, at);
      else emit('pattern-changed', `pattern ${show(bp)} -> ${show(rp)}`, at);
    }
    // discriminator
    const bd = isObj(bs.discriminator) ? bs.discriminator : undefined;
    const rd = isObj(rs.discriminator) ? rs.discriminator : undefined;
    const dpath = jp(path, 'discriminator');
    if (!bd && rd) emit('discriminator-added', `discriminator on ${show(rd.propertyName)} added`, dpath);
    else if (bd && !rd) emit('discriminator-removed', `discriminator on ${show(bd.propertyName)} removed`, dpath);
    else if (bd && rd) {
      if (bd.propertyName !== rd.propertyName)
        emit('discriminator-property-name-changed', `discriminator property ${show(bd.propertyName)} -> ${show(rd.propertyName)}`, dpath);
      if (!same(bd.mapping ?? {}, rd.mapping ?? {})) emit('discriminator-mapping-changed', 'discriminator mapping changed', jp(dpath, 'mapping'));
    }
    this.compareComposition(ctx, b, r);
    // after a type change between objects (or arrays) and something else, their parts are not compared
    const both = (type: string) => (b.types === null || b.types.has(type)) && (r.types === null || r.types.has(type));
    if (both('object')) this.compareProperties(ctx, b, r);
    const bItems = this.child(b.h, 'items');
    const rItems = this.child(r.h, 'items');
    if (both('array') && bItems && rItems && isObj(bItems.node) && isObj(rItems.node))
      this.diffSchema(this.childContext(ctx, jp(path, 'items')), bItems, rItems);
    this.compareAdditionalProperties(ctx, b, r, emit);
    this.compareSubschemas(ctx, b, r, emit);
    const bNot = this.child(b.h, 'not');
    const rNot = this.child(r.h, 'not');
    if (bNot && rNot) this.diffSchema(this.childContext(ctx, jp(path, 'not')), bNot, rNot);
  }

  private compareTypes(ctx: SchemaContext, b: View, r: View, emit: (suffix: string, message: string, at?: string) => void): boolean {
    const bt = b.types;
    const rt = r.types;
    const text = (types: Set<string> | null) => (types ? [...types].sort().join('|') : 'any');
    if (bt === null && rt === null) return false;
    if (bt && rt && bt.size === rt.size && [...bt].every((t) => rt.has(t))) return false;
    const message = `type ${text(bt)} -> ${text(rt)}`;
    const at = jp(ctx.path, 'type');
    const scalar = new Set(['string', 'number', 'integer', 'boolean']);
    // a list of types (OpenAPI 3.1 type arrays, or a oneOf of plain types): plain set comparison
    const list = ctx.prefix !== 'response-header' && bt !== null && rt !== null && (bt.size > 1 || rt.size > 1);
    // parameters travel as text, so `string` accepts every scalar a client sent before
    const param = ctx.loc === 'parameter' && !list;
    const covers = (set: Set<string> | null, t: string) =>
      set === null || set.has(t) || (t === 'integer' && set.has('number')) || (param && set.has('string') && scalar.has(t));
    const wider = bt !== null && [...bt].every((t) => covers(rt, t));
    const narrower = rt !== null && [...rt].every((t) => covers(bt, t));
    if (wider && narrower) return false;
    const widening = ctx.dir === 'request' ? wider : narrower;
    if (ctx.loose && bt !== null && rt !== null && !widening) {
      emit('type-compatible', `${message} (the media type is not JSON)`, at);
    } else if (wider) {
      emit(list ? 'list-of-types-widened' : 'type-generalized', message, at);
    } else if (narrower) {
      if (list) emit('list-of-types-narrowed', message, at);
      else emit(ctx.dir === 'request' ? 'type-changed' : 'type-specialized', message, at);
    } else {
      emit('type-changed', message, at);
    }
    return true;
  }

  private compareValues(ctx: SchemaContext, b: View, r: View, emit: (suffix: string, message: string, at?: string) => void): void {
    const { path, dir } = ctx;
    const bs = b.s;
    const rs = r.s;
    const values = (view: View) => (Array.isArray(view.s.enum) ? view.s.enum.filter((v) => !(v === null && view.nullable)) : undefined);
    const be = values(b);
    const re = values(r);
    const at = jp(path, 'enum');
    if (!be && re) {
      if (dir === 'request') {
        const id =
          ctx.prefix === 'request-parameter-property' && ctx.paramIn === 'header' ? 'request-header-property-became-enum' : this.id(ctx, 'became-enum');
        this.emit(id, ctx.op, at, `restricted to enum ${show(re)}`);
      }
    } else if (be && re) {
      const bKeys = new Set(be.map(canonical));
      const rKeys = new Set(re.map(canonical));
      for (const value of be) {
        if (rKeys.has(canonical(value))) continue;
        if (dir === 'request') emit('enum-value-removed', `enum value ${show(value)} removed`, at);
        else
          this.emit(
            ctx.prefix === 'response-body' ? 'response-mediatype-enum-value-removed' : 'response-property-enum-value-removed',
            ctx.op,
            at,
            `enum value ${show(value)} removed`,
          );
      }
      for (const value of re) {
        if (bKeys.has(canonical(value))) continue;
        emit('enum-value-added', `enum value ${show(value)} added`, at);
      }
    }
    const bx = bs['x-extensible-enum'];
    const rx = rs['x-extensible-enum'];
    if (dir === 'request' && Array.isArray(bx) && Array.isArray(rx)) {
      for (const value of bx)
        if (!rx.some((v) => same(v, value)))
          emit('x-extensible-enum-value-removed', `x-extensible-enum value ${show(value)} removed`, jp(path, 'x-extensible-enum'));
    }
    if ('const' in bs || 'const' in rs) {
      const cat = jp(path, 'const');
      if (!('const' in bs)) emit('const-added', `const ${show(rs.const)} added`, cat);
      else if (!('const' in rs)) emit('const-removed', `const ${show(bs.const)} removed`, cat);
      else if (!same(bs.const, rs.const)) emit('const-changed', `const ${show(bs.const)} -> ${show(rs.const)}`, cat);
    }
    if ('default' in bs || 'default' in rs) {
      const dat = jp(path, 'default');
      if (!('default' in bs)) emit('default-value-added', `default ${show(rs.default)} added`, dat);
      else if (!('default' in rs)) emit('default-value-removed', `default ${show(bs.default)} removed`, dat);
      else if (!same(bs.default, rs.default)) emit('default-value-changed', `default ${show(bs.default)} -> ${show(rs.default)}`, dat);
    }
  }

  private limit(s: Obj, keyword: string): number | undefined {
    const value = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
    if (keyword === 'exclusiveMaximum') return s.exclusiveMaximum === true ? value('maximum') : value('exclusiveMaximum');
    if (keyword === 'exclusiveMinimum') return s.exclusiveMinimum === true ? value('minimum') : value('exclusiveMinimum');
    if (keyword === 'maximum') return s.exclusiveMaximum === true ? undefined : value('maximum');
    if (keyword === 'minimum') return s.exclusiveMinimum === true ? undefined : value('minimum');
    const v = value(keyword);
    return (keyword === 'minLength' || keyword === 'minItems') && v === 0 ? undefined : v;
  }

  private compareLimits(ctx: SchemaContext, bs: Obj, rs: Obj, emit: (suffix: string, message: string, at?: string) => void): void {
    for (const { keyword, name } of LIMITS) {
      const b = this.limit(bs, keyword);
      const r = this.limit(rs, keyword);
      if (b === r) continue;
      const at = jp(ctx.path, keyword);
      if (b === undefined) emit(`${name}-set`, `${keyword} ${r} set`, at);
      else if (r === undefined) emit(`${name}-unset`, `${keyword} ${b} removed`, at);
      else emit(`${name}-${r > b ? 'increased' : 'decreased'}`, `${keyword} ${b} -> ${r}`, at);
    }
  }

  private branches(side: Side, view: View, kw: 'oneOf' | 'anyOf' | 'allOf'): { h: Handle; ref?: string; index: number }[] {
    if (view.absorbed === kw) return [];
    const list = this.child(view.h, kw);
    if (!list || !Array.isArray(list.node)) return [];
    const out: { h: Handle; ref?: string; index: number }[] = [];
    list.node.forEach((node, index) => {
      if (isNullSchema(this.deref(side, this.child(list, index)!).node)) return;
      const ref = isObj(node) && typeof node.$ref === 'string' ? node.$ref : undefined;
      out.push({ h: this.child(list, index)!, ...(ref ? { ref } : {}), index });
    });
    return out;
  }

  /** A resolved, key-sorted rendering of a schema (bounded depth), for matching sub-schemas. */
  private fingerprint(side: Side, h: Handle, depth = 0, seen = new Set<unknown>()): string {
    const d = this.deref(side, h);
    if (depth > 8 || seen.has(d.node)) return '…';
    if (Array.isArray(d.node)) {
      seen.add(d.node);
      const out = `[${d.node.map((_, i) => this.fingerprint(side, this.child(d, i)!, depth + 1, seen)).join(',')}]`;
      seen.delete(d.node);
      return out;
    }
    if (!isObj(d.node)) return JSON.stringify(d.node);
    seen.add(d.node);
    const skip = new Set(['description', 'title', 'example', 'examples']);
    const out = `{${Object.keys(d.node)
      .filter((k) => !skip.has(k))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${this.fingerprint(side, this.child(d, k)!, depth + 1, seen)}`)
      .join(',')}}`;
    seen.delete(d.node);
    return out;
  }

  private compareComposition(ctx: SchemaContext, b: View, r: View): void {
    const names = { oneOf: 'one-of', anyOf: 'any-of', allOf: 'all-of' } as const;
    for (const kw of ['oneOf', 'anyOf', 'allOf'] as const) {
      const bList = this.branches(this.b, b, kw);
      const rList = this.branches(this.r, r, kw);
      if (bList.length === 0 && rList.length === 0) continue;
      const pairs: [Handle, Handle, number][] = [];
      const bLeft = [...bList];
      const rLeft = [...rList];
      const take = (match: (bb: (typeof bList)[number], rr: (typeof rList)[number]) => boolean) => {
        for (const bb of [...bLeft]) {
          const found = rLeft.find((rr) => match(bb, rr));
          if (!found) continue;
          pairs.push([bb.h, found.h, found.index]);
          bLeft.splice(bLeft.indexOf(bb), 1);
          rLeft.splice(rLeft.indexOf(found), 1);
        }
      };
      take((bb, rr) => bb.ref !== undefined && bb.ref === rr.ref);
      if (bLeft.length > 0 && rLeft.length > 0) {
        const bPrints = new Map(bLeft.map((bb) => [bb, this.fingerprint(this.b, bb.h)]));
        const rPrints = new Map(rLeft.map((rr) => [rr, this.fingerprint(this.r, rr.h)]));
        take((bb, rr) => bPrints.get(bb) === rPrints.get(rr));
      }
      take((bb, rr) => bb.ref === undefined && rr.ref === undefined);
      const at = jp(ctx.path, kw);
      const label = (item: { ref?: string; index: number }) => item.ref ?? `inline sub-schema #${item.index + 1}`;
      for (const bb of bLeft) this.emit(this.id(ctx, `${names[kw]}-removed`), ctx.op, jp(at, bb.index), `${label(bb)} removed from ${kw}`);
      for (const rr of rLeft) this.emit(this.id(ctx, `${names[kw]}-added`), ctx.op, jp(at, rr.index), `${label(rr)} added to ${kw}`);
      for (const [bh, rh, index] of pairs) this.diffSchema({ ...ctx, path: jp(at, index), depth: ctx.depth + 1 }, bh, rh);
    }
  }

  private compareProperties(ctx: SchemaContext, b: View, r: View): void {
    const bProps = this.child(b.h, 'properties');
    const rProps = this.child(r.h, 'properties');
    if (!bProps && !rProps) return;
    const { dir, op } = ctx;
    const bRequired = new Set(Array.isArray(b.s.required) ? b.s.required.map(String) : []);
    const rRequired = new Set(Array.isArray(r.s.required) ? r.s.required.map(String) : []);
    const bNames = this.keys(bProps);
    const rNames = this.keys(rProps);
    // a removed property breaks for certain when the schema rejects unknown properties before and after
    const isClosed = (view: View) => view.s.additionalProperties === false || view.s.unevaluatedProperties === false;
    const closed = isClosed(b) && isClosed(r);
    const flags = (side: Side, h: Handle) => {
      const node = this.deref(side, h).node;
      const s = isObj(node) ? node : {};
      return {
        readOnly: s.readOnly === true,
        writeOnly: s.writeOnly === true,
        deprecated: s.deprecated === true,
        sunset: s['x-sunset'],
        hasDefault: 'default' in s,
      };
    };
    for (const name of bNames) {
      if (rNames.includes(name)) continue;
      const f = flags(this.b, this.child(bProps!, name)!);
      const at = jp(jp(ctx.path, 'properties'), name);
      const required = bRequired.has(name);
      if (dir === 'request') {
        if (f.readOnly) continue;
        this.emit(
          closed ? 'request-property-removed-from-closed-schema' : 'request-property-removed',
          op,
          at,
          `property ${name} removed${closed ? ' (the schema rejects unknown properties)' : ''}`,
        );
      } else if (f.writeOnly) {
        this.emit(`response-${required ? 'required' : 'optional'}-write-only-property-removed`, op, at, `writeOnly property ${name} removed`);
      } else {
        this.emit(`response-${required ? 'required' : 'optional'}-property-removed`, op, at, `${required ? 'required' : 'optional'} property ${name} removed`);
      }
    }
    for (const name of rNames) {
      const at = jp(jp(ctx.path, 'properties'), name);
      const rf = flags(this.r, this.child(rProps!, name)!);
      const required = rRequired.has(name);
      if (!bNames.includes(name)) {
        if (dir === 'request') {
          if (required && !rf.readOnly)
            this.emit(
              rf.hasDefault ? 'new-required-request-property-with-default' : 'new-required-request-property',
              op,
              at,
              `required property ${name} added`,
            );
          else this.emit('new-optional-request-property', op, at, `optional property ${name} added`);
        } else {
          this.emit(
            `response-${required ? 'required' : 'optional'}${rf.writeOnly ? '-write-only' : ''}-property-added`,
            op,
            at,
            `${required ? 'required' : 'optional'} property ${name} added`,
          );
        }
        continue;
      }
      const bf = flags(this.b, this.child(bProps!, name)!);
      const wasRequired = bRequired.has(name);
      if (dir === 'request') {
        if (!wasRequired && required && !rf.readOnly)
          this.emit(
            rf.hasDefault ? 'request-property-became-required-with-default' : 'request-property-became-required',
            op,
            at,
            `property ${name} became required`,
          );
        if (wasRequired && !required) this.emit('request-property-became-optional', op, at, `property ${name} became optional`);
      } else {
        if (wasRequired && !required)
          this.emit(
            rf.writeOnly ? 'response-write-only-property-became-optional' : 'response-property-became-optional',
            op,
            at,
            `property ${name} became optional`,
          );
        if (!wasRequired && required)
          this.emit(
            rf.writeOnly ? 'response-write-only-property-became-required' : 'response-property-became-required',
            op,
            at,
            `property ${name} became required`,
          );
      }
      for (const [flag, text] of [
        ['readOnly', 'read-only'],
        ['writeOnly', 'write-only'],
      ] as const) {
        if (bf[flag] === rf[flag]) continue;
        this.emit(
          `${dir}-${required ? 'required' : 'optional'}-property-became-${rf[flag] ? '' : 'not-'}${text}`,
          op,
          jp(at, flag),
          `property ${name} ${rf[flag] ? 'became' : 'is no longer'} ${flag}`,
        );
      }
      const propertyPrefix = `${dir}-property`;
      if (ctx.loc === 'body') {
        if (!bf.deprecated && rf.deprecated) {
          this.emit(
            rf.sunset !== undefined ? `${propertyPrefix}-deprecated-with-sunset` : `${propertyPrefix}-deprecated`,
            op,
            jp(at, 'deprecated'),
            `property ${name} deprecated`,
          );
        } else if (bf.deprecated && !rf.deprecated)
          this.emit(`${propertyPrefix}-reactivated`, op, jp(at, 'deprecated'), `property ${name} no longer deprecated`);
      }
      if (dir === 'request' && bf.readOnly && rf.readOnly) continue;
      if (dir === 'response' && bf.writeOnly && rf.writeOnly) continue;
      this.diffSchema(this.childContext(ctx, at), this.child(bProps!, name)!, this.child(rProps!, name)!);
    }
  }

  private compareAdditionalProperties(ctx: SchemaContext, b: View, r: View, emit: (suffix: string, message: string, at?: string) => void): void {
    const ba = b.s.additionalProperties;
    const ra = r.s.additionalProperties;
    const open = (value: unknown) => value === undefined || value === true || (isObj(value) && Object.keys(value).length === 0);
    const at = jp(ctx.path, 'additionalProperties');
    if (open(ba) && open(ra)) return;
    if (open(ba)) emit('additional-properties-closed', `additionalProperties ${show(ba ?? true)} -> ${show(ra)}`, at);
    else if (open(ra)) emit('additional-properties-opened', `additionalProperties ${show(ba)} -> ${show(ra ?? true)}`, at);
    else if (ba === false && isObj(ra)) emit('additional-properties-opened', 'additionalProperties false -> a schema', at);
    else if (isObj(ba) && ra === false) emit('additional-properties-closed', 'additionalProperties a schema -> false', at);
    else if (isObj(ba) && isObj(ra))
      this.diffSchema(this.childContext(ctx, at), this.child(b.h, 'additionalProperties')!, this.child(r.h, 'additionalProperties')!);
  }

  private compareSubschemas(ctx: SchemaContext, b: View, r: View, emit: (suffix: string, message: string, at?: string) => void): void {
    for (const { keyword, name } of SUBSCHEMA_KEYWORDS) {
      const bv = b.s[keyword];
      const rv = r.s[keyword];
      const at = jp(ctx.path, keyword);
      if (bv === undefined && rv === undefined) continue;
      if (bv === undefined) {
        emit(`${name}-added`, `${keyword} added`, at);
        continue;
      }
      if (rv === undefined) {
        emit(`${name}-removed`, `${keyword} removed`, at);
        continue;
      }
      const bh = this.child(b.h, keyword)!;
      const rh = this.child(r.h, keyword)!;
      if (keyword === 'prefixItems' && Array.isArray(bv) && Array.isArray(rv)) {
        for (let i = 0; i < Math.max(bv.length, rv.length); i++) {
          if (i >= rv.length) emit(`${name}-removed`, `prefixItems[${i}] removed`, jp(at, i));
          else if (i >= bv.length) emit(`${name}-added`, `prefixItems[${i}] added`, jp(at, i));
          else this.diffSchema(this.childContext(ctx, jp(at, i)), this.child(bh, i)!, this.child(rh, i)!);
        }
      } else if (keyword === 'dependentRequired' && isObj(bv) && isObj(rv)) {
        for (const key of Object.keys(bv)) if (!(key in rv)) emit(`${name}-removed`, `dependentRequired ${key} removed`, jp(at, key));
        for (const key of Object.keys(rv)) {
          if (!(key in bv)) emit(`${name}-added`, `dependentRequired ${key} added`, jp(at, key));
          else if (!same(bv[key], rv[key])) emit('dependent-required-changed', `dependentRequired ${key} ${show(bv[key])} -> ${show(rv[key])}`, jp(at, key));
        }
      } else if ((keyword === 'dependentSchemas' || keyword === 'patternProperties') && isObj(bv) && isObj(rv)) {
        for (const key of Object.keys(bv)) if (!(key in rv)) emit(`${name}-removed`, `${keyword} ${key} removed`, jp(at, key));
        for (const key of Object.keys(rv)) {
          if (!(key in bv)) emit(`${name}-added`, `${keyword} ${key} added`, jp(at, key));
          else this.diffSchema(this.childContext(ctx, jp(at, key)), this.child(bh, key)!, this.child(rh, key)!);
        }
      } else if (isObj(bv) && isObj(rv)) {
        this.diffSchema(this.childContext(ctx, at), bh, rh);
      } else if (!same(bv, rv)) {
        // boolean forms (unevaluatedProperties: false): false is the stricter one
        if (rv === false) emit(`${name}-added`, `${keyword} ${show(bv)} -> false`, at);
        else if (bv === false) emit(`${name}-removed`, `${keyword} false -> ${show(rv)}`, at);
      }
    }
  }
}

export function diffSpecs(base: LoadedSpec, revision: LoadedSpec, options: DiffOptions = {}): Change[] {
  return new Differ(base, revision, options).run();
}
