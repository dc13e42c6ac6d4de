/** lookup_integer_sequence: OEIS search by terms, A-number or keywords. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupIntegerSequenceArgs, LookupIntegerSequenceData } from '../../generated/types.ts';
import { search, SOURCE } from '../connectors/oeis.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

export const lookupIntegerSequence: ToolHandler<LookupIntegerSequenceArgs, LookupIntegerSequenceData, ToolContext> = async (args, context) => {
  const fan = await fanOut([{ source: SOURCE, run: () => search(context.upstream, args.query, args.limit) }], (source, error) =>
    context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.sequences ?? []).map((sequence) =>
    makeRecord<LookupIntegerSequenceData>(context.upstream, SOURCE, {
      nativeId: sequence.aNumber,
      type: 'integer_sequence',
      title: `${sequence.aNumber}: ${sequence.name}`,
      url: `https://oeis.org/${sequence.aNumber}`,
      retrievedAt: answer!.retrievedAt,
      data: {
        a_number: sequence.aNumber,
        name: sequence.name,
        terms: sequence.terms,
        offset: sequence.offset,
        formulas: sequence.formulas,
        keywords: sequence.keywords,
        comments: sequence.comments,
        author: sequence.author,
        references_count: sequence.referencesCount,
      },
    }),
  );
  return assemble(fan, records, `${count(records.length, 'integer sequence')} for "${args.query}".`);
};
