/** lookup_astro_object: SIMBAD resolves an identifier to one object through TAP. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupAstroObjectArgs, LookupAstroObjectData } from '../../generated/types.ts';
import { objectUrl, SOURCE, tapQuery } from '../connectors/simbad.ts';
import type { ToolContext } from './context.ts';
import { assemble, fanOut, makeRecord } from './result.ts';

export const lookupAstroObject: ToolHandler<LookupAstroObjectArgs, LookupAstroObjectData, ToolContext> = async (args, context) => {
  const fan = await fanOut([{ source: SOURCE, run: () => tapQuery(context.upstream, args.name) }], (source, error) =>
    context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.objects ?? []).map((object) =>
    makeRecord<LookupAstroObjectData>(context.upstream, SOURCE, {
      nativeId: object.mainId,
      type: 'astro_object',
      title: object.mainId,
      url: objectUrl(object.mainId),
      retrievedAt: answer!.retrievedAt,
      data: {
        main_id: object.mainId,
        object_type: object.objectType,
        object_type_code: object.objectTypeCode,
        ra_deg: object.raDeg,
        dec_deg: object.decDeg,
        parallax_mas: object.parallaxMas,
        pm_ra_mas_yr: object.pmRaMasYr,
        pm_dec_mas_yr: object.pmDecMasYr,
        radial_velocity_km_s: object.radialVelocityKmS,
        spectral_type: object.spectralType,
        v_magnitude: object.vMagnitude,
        identifiers: object.identifiers,
      },
    }),
  );
  const first = records[0];
  const summary = first
    ? `"${args.name}" is ${first.data.main_id}${first.data.object_type ? ` (${first.data.object_type})` : ''}.`
    : `No object named "${args.name}" is known to SIMBAD.`;
  return assemble(fan, records, summary);
};
