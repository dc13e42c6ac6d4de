/** Problems found in a manifest, each with the path of the offending field. */
export type FieldPath = Array<string | number>;

export interface ManifestIssue {
  path: FieldPath;
  message: string;
}

/** Formats a path as the reader of tools.yaml sees it: `tools[4].input.properties.limit.default`. */
export function formatPath(path: FieldPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('');
}

export class ManifestError extends Error {
  constructor(
    readonly file: string,
    readonly issues: Array<ManifestIssue & { line?: number; tool?: string }>,
  ) {
    super(
      `${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n` +
        issues
          .map((issue) => {
            const where = `${file}${issue.line === undefined ? '' : `:${issue.line}`}`;
            const tool = issue.tool === undefined ? '' : ` tool "${issue.tool}"`;
            const field = issue.path.length === 0 ? '' : ` ${formatPath(issue.path)}:`;
            return `  ${where}:${tool}${field} ${issue.message}`;
          })
          .join('\n'),
    );
    this.name = 'ManifestError';
  }
}
