/**
 * search_expression_data: with `gene`, GTEx median TPM per human tissue (the symbol resolved to the
 * versioned GENCODE id first), highest first; with `query`, GEO expression series. Both in one call:
 * each part is its own source, so one failing leaves the other (partial).
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchExpressionDataArgs, SearchExpressionDataData, ToolRecord } from '../../generated/types.ts';
import * as geo from '../connectors/geo.ts';
import * as gtex from '../connectors/gtex.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord, type SourceCall } from './result.ts';

type Data = SearchExpressionDataData;
type Part =
  | { kind: 'tissues'; gene: gtex.GtexGene | undefined; tissues: gtex.TissueMedian[]; retrievedAt?: string }
  | { kind: 'series'; series: geo.Series[]; total: number; retrievedAt: string };

export const searchExpressionData: ToolHandler<SearchExpressionDataArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const calls: Array<SourceCall<Part>> = [];
  if (args.gene) {
    calls.push({
      source: gtex.SOURCE,
      run: async () => {
        const gene = await gtex.resolveGene(upstream, args.gene!);
        if (!gene) return { kind: 'tissues', gene, tissues: [] };
        const medians = await gtex.medianGeneExpression(upstream, gene.gencodeId);
        return { kind: 'tissues', gene, tissues: medians.tissues, retrievedAt: medians.retrievedAt };
      },
    });
  }
  if (args.query) {
    calls.push({ source: geo.SOURCE, run: async () => ({ kind: 'series', ...(await geo.searchSeries(upstream, args.query!, args.organism, args.limit)) }) });
  }
  const fan = await fanOut(calls, (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'), context.progress);

  const records: Array<ToolRecord<Data>> = [];
  const sentences: string[] = [];
  for (const { value } of fan.answered) {
    if (value.kind === 'tissues') {
      if (!value.gene || value.tissues.length === 0 || !value.retrievedAt) {
        sentences.push(
          `GTEx (${gtex.DATASET}) could not resolve the human gene "${args.gene}", so no tissue expression is given (this does not mean it is not expressed)`,
        );
        continue;
      }
      const gene = value.gene;
      records.push(
        makeRecord<Data>(upstream, gtex.SOURCE, {
          nativeId: gene.gencodeId,
          type: 'expression',
          title: `${gene.symbol}: median expression across ${value.tissues.length} human tissues (GTEx ${gtex.DATASET})`,
          url: gtex.genePage(gene.symbol),
          retrievedAt: value.retrievedAt,
          data: { kind: 'tissue_expression', gene_symbol: gene.symbol, gencode_id: gene.gencodeId, dataset_id: gtex.DATASET, tissues: value.tissues },
        }),
      );
      const top = value.tissues[0]!;
      sentences.push(`${gene.symbol} is most expressed in ${top.tissue_id} (median ${top.median_tpm} TPM) of ${value.tissues.length} GTEx tissues`);
    } else {
      for (const series of value.series) {
        records.push(
          makeRecord<Data>(upstream, geo.SOURCE, {
            nativeId: series.accession,
            type: 'expression',
            title: series.title ? `${series.accession}: ${series.title}` : series.accession,
            url: geo.seriesUrl(series.accession),
            retrievedAt: value.retrievedAt,
            data: {
              kind: 'dataset_series',
              accession: series.accession,
              title: series.title,
              summary: series.summary,
              organisms: series.organisms,
              sample_count: series.sampleCount,
              platforms: series.platforms,
              experiment_type: series.experimentType,
              publication_date: series.publicationDate,
              series_url: geo.seriesUrl(series.accession),
            },
          }),
        );
      }
      const of = value.total > value.series.length ? ` of ${value.total}` : '';
      sentences.push(
        `${count(value.series.length, 'GEO expression series', 'GEO expression series')}${of} for "${args.query}"${args.organism ? ` in ${args.organism}` : ''}`,
      );
    }
  }
  return assemble(fan, records, sentences.length > 0 ? `${sentences.join('; ')}.` : 'No expression data.');
};
