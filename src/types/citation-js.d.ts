// The parts of citation-js (which ships no type declarations) that the citation export uses.
declare module '@citation-js/core' {
  export class Cite {
    constructor(data: unknown);
    data: Array<Record<string, unknown>>;
    format(format: string, options?: Record<string, unknown>): string;
  }
}
declare module '@citation-js/plugin-bibtex';
declare module '@citation-js/plugin-ris';
declare module '@citation-js/plugin-csl';
declare module '@citation-js/name' {
  export function parse(name: string): {
    given?: string;
    family?: string;
    literal?: string;
    'non-dropping-particle'?: string;
    'dropping-particle'?: string;
    suffix?: string;
  };
}
