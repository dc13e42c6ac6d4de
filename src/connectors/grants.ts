/** What the three funders' connectors share: the search they are given and the project they give back. */
import type { SearchGrantsData } from '../../generated/types.ts';

export interface GrantSearch {
  query: string;
  piName?: string;
  organization?: string;
  /** Earliest fiscal year (nih) or start year (nsf, ukri). */
  yearFrom?: number;
  yearTo?: number;
  limit: number;
}

export interface Grant {
  /** The funder's own id of the project (NIH application id, NSF award id, UKRI grant reference). */
  nativeId: string;
  title?: string;
  url?: string;
  /** What stays the same across a project's yearly records (NIH's core project number), when it differs from the project number. */
  coreProject?: string;
  data: SearchGrantsData;
}

export interface GrantAnswer {
  grants: Grant[];
  retrievedAt: string;
}
