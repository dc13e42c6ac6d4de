/** The shape of tools.yaml once loaded and validated. Field names follow the YAML file. */

/** The subset of JSON Schema the manifest allows for arguments, record data and figure extras. */
export interface SchemaNode {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  description?: string;
  enum?: Array<string | number>;
  const?: string | number | boolean;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'date' | 'date-time' | 'uri';
  items?: SchemaNode;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: SchemaNode | boolean;
  oneOf?: SchemaNode[];
}

/** A default that depends on the value of another argument (create_figure's aspect_ratio). */
export interface DefaultFrom {
  field: string;
  map: Record<string, unknown>;
  otherwise: unknown;
}

export interface InputProperty extends SchemaNode {
  default_from?: DefaultFrom;
}

export type Constraint =
  | { rule: 'together'; fields: string[] }
  | { rule: 'at_least_one'; fields: string[] }
  | { rule: 'ordered'; fields: [string, string] }
  | { rule: 'max_days'; fields: [string, string]; max: number; when?: Record<string, unknown> };

export interface ToolInput {
  properties: Record<string, InputProperty>;
  required?: string[];
  constraints?: Constraint[];
}

export interface UpstreamCall {
  source: string;
  function: string;
}

export interface ToolUpstream {
  select_by?: string;
  calls: UpstreamCall[];
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  pack: string;
  credits: number;
  capability: string;
  record_type: string;
  input: ToolInput;
  data: SchemaNode;
  extra?: SchemaNode;
  figure_price_credits?: number;
  /** Limits the handler enforces (`{{limits.<name>}}` in the tool's texts stands for the value). */
  limits?: Record<string, number>;
  /** The tool's papers can also be answered as BibTeX, RIS or CSL-JSON (Accept header). */
  citation_export?: boolean;
  upstream?: ToolUpstream;
}

export interface PackDefinition {
  id: string;
  title: string;
}

export interface CapabilityDefinition {
  id: string;
  title: string;
}

export interface SourceDefinition {
  id: string;
  title: string;
  base_url: string;
  docs_url: string;
  license: string;
  attribution: string;
  key: 'required' | 'optional' | 'none';
  contact_email: 'required' | 'recommended' | 'none';
  timeout_ms: number;
  rate_limit: { requests_per_second: number; concurrency: number };
  cache_ttl_s: number;
  /** Largest body read from this source, after decompression (default: the upstream layer's). */
  max_body_bytes?: number;
  /** Redirects to the same host followed (default 0); a redirect to another host is never followed. */
  same_host_redirects?: number;
  /** Documented quotas counted across every server process (src/upstream/budgets.ts). */
  budget?: SourceBudget;
  note?: string;
}

export type BudgetPer = 'second' | 'minute' | 'hour' | 'day';

export interface BudgetWindow {
  per: BudgetPer;
  /** midnight_utc: a calendar day of UTC (per: day only); rolling: the last second, minute, hour or 24 hours. */
  reset: 'midnight_utc' | 'rolling';
  limit: number;
  /** The limit while no key is configured (sources whose key is optional). */
  limit_without_key?: number;
}

export interface SourceBudget {
  /** Where the figures come from. */
  documented: string;
  /** What limits and costs count (default: requests). */
  unit?: 'requests' | 'usd';
  /** Request kinds the connector tags, with their cost; a request without a kind costs the dearest. Without kinds a request costs 1. */
  kinds?: Record<string, number>;
  windows: BudgetWindow[];
  /** The answer by which the upstream says a quota is spent. */
  spent_signal?: { status: number; body_pattern?: string; window: BudgetPer };
}

export interface Manifest {
  packs: PackDefinition[];
  capabilities: CapabilityDefinition[];
  sources: SourceDefinition[];
  tools: ToolDefinition[];
}
