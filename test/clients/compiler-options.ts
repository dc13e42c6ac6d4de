/** How the tests compile callers of the TypeScript client: as its package says (ES2022 and DOM libraries, no Node types). */
import { ts } from 'ts-morph';

export const clientCallerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  skipLibCheck: true,
};
