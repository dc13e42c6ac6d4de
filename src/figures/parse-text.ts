/**
 * Plain sentences → graph. "A binds B, which activates C; C inhibits D" gives A–B (binds),
 * B→C (activates), C⊣D (inhibits). Clauses are split at sentence ends, semicolons, "then" and
 * relative pronouns; a pronoun subject ("which", "it") refers to the last entity named; a clause
 * with no relation verb is a step that follows the previous one, so "Sampling, then sequencing,
 * then analysis" is a three-step chain. Lists ("A and B activate C") fan out.
 */
import { FigureInputError, nodeIdFor, normaliseName, type FigureEdge, type FigureGraph, type RelationKind } from './model.ts';

interface Verb {
  pattern: string;
  kind: RelationKind;
  /** Edge label for `acts` verbs (the verb itself). */
  label?: string;
  /** Passive voice: the object acts on the subject. */
  passive?: boolean;
}

const ACTIVE: Array<[RelationKind, string[]]> = [
  [
    'binds',
    [
      'forms a complex with',
      'form a complex with',
      'interacts with',
      'interact with',
      'associates with',
      'associate with',
      'dimeri[sz]es with',
      'binds to',
      'bind to',
      'binds',
      'bind',
    ],
  ],
  [
    'activates',
    [
      'activates',
      'activate',
      'stimulates',
      'stimulate',
      'induces',
      'induce',
      'promotes',
      'promote',
      'up-?regulates',
      'up-?regulate',
      'enhances',
      'enhance',
      'triggers',
      'drives',
      'increases',
      'amplifies',
      'activating',
      'inducing',
      'promoting',
      'stimulating',
    ],
  ],
  [
    'inhibits',
    [
      'inhibits',
      'inhibit',
      'blocks',
      'suppresses',
      'suppress',
      'represses',
      'repress',
      'down-?regulates',
      'down-?regulate',
      'prevents',
      'prevent',
      'antagoni[sz]es',
      'antagoni[sz]e',
      'reduces',
      'decreases',
      'attenuates',
      'attenuate',
      'silences',
      'inhibiting',
      'blocking',
      'suppressing',
      'preventing',
    ],
  ],
  [
    'leads',
    [
      'leads to',
      'lead to',
      'leading to',
      'results in',
      'result in',
      'resulting in',
      'gives rise to',
      'give rise to',
      'is followed by',
      'are followed by',
      'followed by',
      'feeds into',
      'feed into',
      'flows to',
      'flows into',
      'goes to',
      'go to',
      'is split into',
      'are split into',
      'split into',
      'are divided into',
      'is divided into',
      'are randomi[sz]ed to',
      'randomi[sz]ed to',
      'are allocated to',
      'are assigned to',
      'differentiates into',
      'differentiate into',
      'becomes',
      'become',
      'causes',
      'yields',
      'precedes',
      '->',
      '→',
      '=>',
      '⟶',
    ],
  ],
  [
    'acts',
    [
      'dephosphorylates',
      'phosphorylates',
      'phosphorylate',
      'ubiquitinates',
      'ubiquitinate',
      'cleaves',
      'cleave',
      'methylates',
      'acetylates',
      'degrades',
      'degrade',
      'recruits',
      'recruit',
      'transports',
      'converts',
      'convert',
      'produces',
      'produce',
      'releases',
      'secretes',
      'secrete',
      'encodes',
      'encode',
      'transcribes',
      'translates into',
      'catalyses',
      'catalyzes',
      'catalyse',
      'catalyze',
      'sequesters',
      'sequester',
      'translocates to',
      'translocate to',
      'enters',
      'regulates',
      'regulate',
      'modulates',
      'modulate',
      'targets',
      'feeds',
      'informs',
      'trains',
      'generates',
      'generate',
      'sends',
      'stores',
      'reads',
      'writes',
      'queries',
      'measures',
      'releasing:releases',
      'producing:produces',
      'recruiting:recruits',
      'phosphorylating:phosphorylates',
      'forming:forms',
      'generating:generates',
    ],
  ],
];

const PASSIVE: Array<[RelationKind, string[]]> = [
  ['activates', ['activated', 'stimulated', 'induced', 'promoted', 'up-?regulated', 'enhanced', 'triggered', 'driven']],
  ['inhibits', ['inhibited', 'blocked', 'suppressed', 'repressed', 'down-?regulated', 'prevented', 'antagoni[sz]ed', 'silenced']],
  ['binds', ['bound']],
  // participle:active form, the active form labels the edge
  [
    'acts',
    [
      'phosphorylated:phosphorylates',
      'dephosphorylated:dephosphorylates',
      'ubiquitinated:ubiquitinates',
      'cleaved:cleaves',
      'methylated:methylates',
      'acetylated:acetylates',
      'degraded:degrades',
      'recruited:recruits',
      'transported:transports',
      'converted:converts',
      'produced:produces',
      'released:releases',
      'secreted:secretes',
      'encoded:encodes',
      'catalysed:catalyses',
      'catalyzed:catalyzes',
      'regulated:regulates',
      'modulated:modulates',
      'targeted:targets',
      'generated:generates',
      'measured:measures',
      'sequestered:sequesters',
    ],
  ],
];

const verbs: Array<{ regex: RegExp; verb: Verb }> = [];
for (const [kind, words] of PASSIVE) {
  for (const entry of words) {
    const [word, active] = entry.split(':') as [string, string | undefined];
    const verb: Verb = { pattern: word, kind, passive: true };
    if (active) verb.label = active;
    verbs.push({ regex: new RegExp(`\\s(?:is|are|was|were|gets|get|becomes|become)\\s+${word}\\s+(?:by|through|via)\\s`, 'i'), verb });
  }
}
for (const [kind, words] of ACTIVE) {
  for (const entry of words) {
    const [word, active] = entry.split(':') as [string, string | undefined];
    const symbol = /^[-=→⟶]/.test(word);
    const body = word.replace(/[->]/g, (c) => `\\${c}`).replace(/\\-\?/g, '-?');
    verbs.push({
      regex: symbol ? new RegExp(`\\s*${body}\\s*`) : new RegExp(`\\s(?:also\\s+|then\\s+|directly\\s+|in turn\\s+|strongly\\s+)?${word}\\s`, 'i'),
      verb: active ? { pattern: word, kind, label: active } : { pattern: word, kind },
    });
  }
}

/** The earliest relation verb in `clause` (longest on ties). */
function findVerb(clause: string): { index: number; end: number; verb: Verb; text: string } | undefined {
  let best: { index: number; end: number; verb: Verb; text: string } | undefined;
  const padded = ` ${clause} `;
  for (const { regex, verb } of verbs) {
    const match = regex.exec(padded);
    if (!match) continue;
    const index = match.index - 1;
    const end = match.index + match[0].length - 1;
    if (!best || index < best.index || (index === best.index && end > best.end)) best = { index, end, verb, text: match[0].trim() };
  }
  return best;
}

const PRONOUN = /^(which|that|this|it|they|these|those|this in turn|which in turn|that in turn|and|then|and then|in turn)$/i;
const SEQUENCE_WORDS =
  /^(?:(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|then|next|finally|lastly|after that|afterwards|subsequently|and then|and|step\s*\d+\s*[:.)-]?|\d+[.)])[,:]?\s+)+/i;

function cleanName(text: string): string {
  let name = text
    .trim()
    .replace(SEQUENCE_WORDS, '')
    .replace(/^["'“‘(]+|["'”’),:]+$/g, '')
    .replace(/^(the|a|an)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^[a-z][a-z-]*(\s|$)/.test(name)) name = name[0]!.toUpperCase() + name.slice(1);
  return name;
}

/** "A and B", "A, B and C" → parts (only when every part is short, so names with "and" survive). */
function splitList(text: string): string[] {
  const parts = text
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length > 1 && parts.every((part) => part.split(/\s+/).length <= 5)) return parts;
  return [text.trim()];
}

function splitClauses(description: string): string[] {
  return description
    .replace(/\r/g, '')
    .split(/\n+|;|\.(?=\s|$)\s*|,\s*(?=(?:which|that|and then|then|followed by|leading to|resulting in)\b)|\s+then\s+/i)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0 && !/^[,.\s]+$/.test(clause));
}

export const MAX_NODES = 40;

export function parseSentences(description: string): FigureGraph {
  const graph: FigureGraph = { nodes: [], edges: [], groups: [] };
  const ids = new Set<string>();
  const entity = (raw: string): string | undefined => {
    const label = cleanName(raw);
    if (!label) return undefined;
    const existing = graph.nodes.find((node) => normaliseName(node.label) === normaliseName(label));
    if (existing) return existing.id;
    const id = nodeIdFor(label, ids);
    ids.add(id);
    graph.nodes.push({ id, label: label.length > 80 ? `${label.slice(0, 79)}…` : label });
    return id;
  };
  const addEdge = (edge: FigureEdge): void => {
    if (edge.from === edge.to) return;
    if (!graph.edges.some((e) => e.from === edge.from && e.to === edge.to && e.kind === edge.kind)) graph.edges.push(edge);
  };

  let last: string[] = [];
  for (const raw of splitClauses(description)) {
    let clause = raw.replace(/^,\s*/, '');
    let subjects: string[] | undefined;
    // A clause may chain several relations: "A binds B which activates C leading to D".
    for (let guard = 0; guard < 10 && clause; guard++) {
      const found = findVerb(clause);
      if (!found) {
        if (subjects === undefined) {
          // A step with no verb: it follows the previous clause's entity in a sequence.
          const steps = clause.includes(',') ? clause.split(/\s*,\s*/) : [clause];
          for (const step of steps) {
            const id = entity(step);
            if (!id) continue;
            for (const previous of last) addEdge({ from: previous, to: id, kind: 'leads' });
            last = [id];
          }
        }
        break;
      }
      const before = clause.slice(0, found.index).trim();
      const rest = clause.slice(found.end).trim();
      const next = findVerb(rest);
      const objectText = next
        ? rest
            .slice(0, next.index)
            .replace(/[,\s]+(which|that|and)$/i, '')
            .trim()
        : rest;
      const subjectIds =
        subjects ??
        (before === '' || PRONOUN.test(before.replace(SEQUENCE_WORDS, '').trim()) || PRONOUN.test(before)
          ? last
          : splitList(before)
              .map(entity)
              .filter((id): id is string => !!id));
      const objectIds = splitList(objectText.replace(/^(which|that)\s+/i, ''))
        .map(entity)
        .filter((id): id is string => !!id);
      if (objectIds.length === 0) break;
      for (const s of subjectIds) {
        for (const o of objectIds) {
          const [from, to] = found.verb.passive ? [o, s] : [s, o];
          const edge: FigureEdge = { from, to, kind: found.verb.kind };
          if (found.verb.kind === 'acts') edge.label = verbLabel(found.text, found.verb);
          addEdge(edge);
        }
      }
      last = objectIds;
      subjects = objectIds;
      clause = next ? rest.slice(next.index).trim() : '';
      if (next) clause = `it ${clause}`;
    }
    if (graph.nodes.length > MAX_NODES) {
      throw new FigureInputError('description', `describes more than ${MAX_NODES} entities; split it into several figures`);
    }
  }
  return graph;
}

function verbLabel(text: string, verb: Verb): string {
  if (verb.label) return verb.label;
  return text.replace(/^(also|then|directly|in turn|strongly)\s+/i, '').toLowerCase();
}
