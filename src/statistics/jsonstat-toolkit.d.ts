/** The part of jsonstat-toolkit (JSON-stat JavaScript Toolkit, no bundled types) the Eurostat connector uses. */
declare module 'jsonstat-toolkit' {
  export interface JsonStatCategory {
    label: string | null;
  }
  export interface JsonStatDimension {
    label: string | null;
    /** Category ids in index order. */
    id: string[];
    Category(id: string): JsonStatCategory | null;
  }
  export interface JsonStatDataset {
    class: string;
    label: string | null;
    updated: string | null;
    id: string[];
    size: number[];
    extension: Record<string, unknown> | null;
    /** Every cell's value in row-major order; null when the dataset has none at all. */
    value: Array<number | null> | null;
    status: Array<string | null> | null;
    Dimension(id: string): JsonStatDimension | null;
    Data(filter: Record<string, string>): { value: number | null; status: string | null } | null;
  }
  export default function JSONstat(input: object): JsonStatDataset;
}
