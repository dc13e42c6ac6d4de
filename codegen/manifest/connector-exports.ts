/**
 * `upstream.calls[].function` of tools.yaml must name a function the source's connector module
 * exports (src/connectors/<source>.ts), so the manifest's account of what a tool calls stays true.
 * Read with the TypeScript parser alone (no type check), so codegen stays fast.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import type { ManifestIssue } from './issues.ts';
import type { Manifest } from './types.ts';

/** The names a module exports at its top level (declarations and `export { … }` lists). */
export function exportedNames(text: string, file = 'module.ts'): Set<string> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const names = new Set<string>();
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.add(statement.name.text);
    if (exported && ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
    }
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
    }
  }
  return names;
}

/** One issue per call whose connector module is missing or does not export the named function. */
export function connectorExportIssues(manifest: Manifest, projectRoot: string, connectorsDir = 'src/connectors'): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const exportsOf = new Map<string, Set<string> | undefined>();
  manifest.tools.forEach((tool, toolIndex) => {
    tool.upstream?.calls.forEach((call, callIndex) => {
      const file = join(projectRoot, connectorsDir, `${call.source}.ts`);
      const shown = relative(projectRoot, file);
      if (!exportsOf.has(file)) exportsOf.set(file, existsSync(file) ? exportedNames(readFileSync(file, 'utf8'), file) : undefined);
      const names = exportsOf.get(file);
      const path = ['tools', toolIndex, 'upstream', 'calls', callIndex, 'function'];
      if (names === undefined) issues.push({ path, message: `there is no connector module ${shown} for source "${call.source}"` });
      else if (!names.has(call.function)) {
        issues.push({ path, message: `${shown} exports no "${call.function}" (it exports: ${[...names].sort().join(', ')})` });
      }
    });
  });
  return issues;
}
