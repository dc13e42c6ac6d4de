/** search_exoplanets: confirmed planets from the NASA Exoplanet Archive's composite table. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchExoplanetsArgs, SearchExoplanetsData } from '../../generated/types.ts';
import { SOURCE, tapQuery } from '../connectors/exoplanet-archive.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

export const searchExoplanets: ToolHandler<SearchExoplanetsArgs, SearchExoplanetsData, ToolContext> = async (args, context) => {
  const query = {
    hostStar: args.host_star,
    planetName: args.planet_name,
    discoveryMethod: args.discovery_method,
    maxDistancePc: args.max_distance_pc,
    minRadiusEarth: args.min_radius_earth,
    maxRadiusEarth: args.max_radius_earth,
    inHabitableZone: args.in_habitable_zone,
    discoveredAfter: args.discovered_after,
    limit: args.limit,
  };
  const fan = await fanOut([{ source: SOURCE, run: () => tapQuery(context.upstream, query) }], (source, error) =>
    context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.planets ?? []).map((planet) =>
    makeRecord<SearchExoplanetsData>(context.upstream, SOURCE, {
      nativeId: planet.planetName,
      type: 'exoplanet',
      title: planet.planetName,
      retrievedAt: answer!.retrievedAt,
      data: {
        planet_name: planet.planetName,
        host_star: planet.hostStar,
        discovery_method: planet.discoveryMethod,
        discovery_year: planet.discoveryYear,
        orbital_period_days: planet.orbitalPeriodDays,
        radius_earth: planet.radiusEarth,
        mass_earth: planet.massEarth,
        equilibrium_temperature_k: planet.equilibriumTemperatureK,
        insolation_earth: planet.insolationEarth,
        distance_pc: planet.distancePc,
        discovery_reference: planet.discoveryReference,
        discovery_reference_url: planet.discoveryReferenceUrl,
      },
    }),
  );
  const filters = [
    args.host_star !== undefined && `around ${args.host_star}`,
    args.planet_name !== undefined && `named like "${args.planet_name}"`,
    args.discovery_method !== undefined && `found by ${args.discovery_method}`,
    args.max_distance_pc !== undefined && `within ${args.max_distance_pc} pc`,
    args.in_habitable_zone === true && 'in the approximate habitable zone',
    args.discovered_after !== undefined && `discovered after ${args.discovered_after}`,
  ].filter(Boolean);
  return assemble(fan, records, `${count(records.length, 'confirmed exoplanet')}${filters.length > 0 ? ` ${filters.join(', ')}` : ''}.`);
};
