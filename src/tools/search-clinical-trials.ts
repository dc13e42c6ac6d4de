/** search_clinical_trials: ClinicalTrials.gov API v2, the spec's status and phase mapped to the registry's values. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchClinicalTrialsArgs, SearchClinicalTrialsData } from '../../generated/types.ts';
import { getStudy, searchStudies, SOURCE, studyUrl, type Study } from '../connectors/clinicaltrials.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

export const searchClinicalTrials: ToolHandler<SearchClinicalTrialsArgs, SearchClinicalTrialsData, ToolContext> = async (args, context) => {
  const nctOnly = /^NCT\d{8}$/i.test(args.query?.trim() ?? '') && !args.condition && !args.intervention && !args.phase && !args.status && !args.country;
  const fan = await fanOut(
    [
      {
        source: SOURCE,
        run: async (): Promise<{ studies: Study[]; totalCount?: number; retrievedAt: string }> => {
          if (nctOnly) {
            const one = await getStudy(context.upstream, args.query!.trim().toUpperCase());
            return { studies: one.study ? [one.study] : [], totalCount: one.study ? 1 : 0, retrievedAt: one.retrievedAt };
          }
          return searchStudies(context.upstream, args, args.limit);
        },
      },
    ],
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.studies ?? []).map((study) =>
    makeRecord<SearchClinicalTrialsData>(context.upstream, SOURCE, {
      nativeId: study.nctId,
      type: 'trial',
      title: study.title,
      url: studyUrl(study.nctId),
      retrievedAt: answer!.retrievedAt,
      data: {
        nct_id: study.nctId,
        title: study.title,
        status: study.status,
        phases: study.phases,
        study_type: study.studyType,
        conditions: study.conditions,
        interventions: study.interventions,
        sponsor: study.sponsor,
        enrollment: study.enrollment,
        start_date: study.startDate,
        completion_date: study.completionDate,
        primary_outcomes: study.primaryOutcomes,
        registry_url: studyUrl(study.nctId),
      },
    }),
  );
  const criteria = [
    args.condition && `condition "${args.condition}"`,
    args.intervention && `intervention "${args.intervention}"`,
    args.phase && `phase ${args.phase}`,
    args.status && `status ${args.status}`,
    args.country && `a site in ${args.country}`,
    args.query && `"${args.query}"`,
  ].filter(Boolean);
  const of = answer?.totalCount !== undefined && answer.totalCount > records.length ? ` of ${answer.totalCount}` : '';
  return assemble(fan, records, `${count(records.length, 'clinical trial')}${of} for ${criteria.join(', ')}.`);
};
