/** query_gaia: a Gaia DR3 cone search, brightest first, source_id kept exact as a string. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { QueryGaiaArgs, QueryGaiaData } from '../../generated/types.ts';
import { SOURCE, tapQuery } from '../connectors/gaia.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

export const queryGaia: ToolHandler<QueryGaiaArgs, QueryGaiaData, ToolContext> = async (args, context) => {
  const query = { ra: args.ra, dec: args.dec, radiusDeg: args.radius_deg, maxGMag: args.max_g_mag, limit: args.limit };
  const fan = await fanOut([{ source: SOURCE, run: () => tapQuery(context.upstream, query) }], (source, error) =>
    context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.sources ?? []).map((source) =>
    makeRecord<QueryGaiaData>(context.upstream, SOURCE, {
      nativeId: source.sourceId,
      type: 'gaia_source',
      title: `Gaia DR3 ${source.sourceId}`,
      retrievedAt: answer!.retrievedAt,
      data: {
        source_id: source.sourceId,
        ra_deg: source.raDeg,
        dec_deg: source.decDeg,
        distance_deg: source.distanceDeg,
        parallax_mas: source.parallaxMas,
        parallax_error_mas: source.parallaxErrorMas,
        pm_ra_mas_yr: source.pmRaMasYr,
        pm_dec_mas_yr: source.pmDecMasYr,
        g_mag: source.gMag,
        bp_mag: source.bpMag,
        rp_mag: source.rpMag,
        radial_velocity_km_s: source.radialVelocityKmS,
        teff_k: source.teffK,
      },
    }),
  );
  const bright = args.max_g_mag !== undefined ? ` with G ≤ ${args.max_g_mag}` : '';
  return assemble(
    fan,
    records,
    `${count(records.length, 'Gaia DR3 source')}${bright} within ${args.radius_deg}° of RA ${args.ra}, Dec ${args.dec}, brightest first.`,
  );
};
