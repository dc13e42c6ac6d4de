import { capabilities, tools } from '../../generated/tools.ts';
import type { ListCapabilitiesArgs, ListCapabilitiesData, ToolOutcome } from '../../generated/types.ts';
import { builtinRecord } from '../builtin-record.ts';

type CapabilityId = ListCapabilitiesData['id'];
type Pack = ListCapabilitiesData['pack'];

/** The records of one discipline ('' for all), made once: the manifest does not change while the process runs. */
const recordsByDiscipline = new Map<string, Array<{ id: string; title: string; data: ListCapabilitiesData }>>();

function capabilityRecords(discipline: Pack | undefined): Array<{ id: string; title: string; data: ListCapabilitiesData }> {
  const key = discipline ?? '';
  let records = recordsByDiscipline.get(key);
  if (records) return records;
  const allTools = Object.values(tools);
  records = capabilities.flatMap((capability) => {
    const members = allTools.filter((tool) => tool.capability === capability.id);
    const pack = members[0]?.pack as Pack | undefined;
    if (pack === undefined || (discipline !== undefined && pack !== discipline)) return [];
    const data: ListCapabilitiesData = {
      id: capability.id as CapabilityId,
      title: capability.title,
      pack,
      tools: members.map((tool) => tool.name),
      sources: [...new Set(members.flatMap((tool) => tool.sources as readonly string[]))].sort(),
    };
    // Shared by every answer, so frozen: nothing downstream may change them.
    Object.freeze(data.tools);
    Object.freeze(data.sources);
    return [{ id: `${builtinRecord.source}:${capability.id}`, title: capability.title, data: Object.freeze(data) }];
  });
  recordsByDiscipline.set(key, records);
  return records;
}

/** Every capability with its tools, pack and sources, straight from the manifest. */
export async function listCapabilities(args: ListCapabilitiesArgs): Promise<ToolOutcome<ListCapabilitiesData>> {
  const retrievedAt = new Date().toISOString();
  const records = capabilityRecords(args.discipline as Pack | undefined).map(({ id, title, data }) => ({
    id,
    type: 'capability',
    title,
    ...builtinRecord,
    retrievedAt,
    data,
  }));
  const scope = args.discipline === undefined ? 'all packs' : `the ${args.discipline} pack`;
  const toolCount = records.reduce((sum, record) => sum + record.data.tools.length, 0);
  return { summary: `${records.length} capabilities with ${toolCount} tools in ${scope}.`, records };
}
