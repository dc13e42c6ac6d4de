/**
 * A copy of a string cut from a larger one (a cell of a series list, an attribute or a text of a
 * structure message) that does not keep the larger one alive. V8 gives a cut of 13 characters or
 * more as a view into its source: a catalogue that keeps a few names from each piece of a download
 * would keep every piece whole (OECD's dataflow list kept 13 MiB of its pieces so,
 * docs/benchmarks.md run 40). Joining flattens into a new string, whose cut then points into it.
 */
export const detached = (text: string): string => (' ' + text).slice(1);
