import { capabilities, tools } from '../../generated/tools.ts';
import type { ListCapabilitiesArgs, ListCapabilitiesData, ToolOutcome } from '../../generated/types.ts';
import { builtinRecord } from '../builtin-record.ts';

type CapabilityId = ListCapabilitiesData['id'];
type Pack = ListCapabilitiesData['pack'];

/** Every capability with its tools, pack and sources, straight from the manifest. */
export async function listCapabilities(args: ListCapabilitiesArgs): Promise<ToolOutcome<ListCapabilitiesData>> {
  const retrievedAt = new Date().toISOString();
  const allTools = Object.values(tools);
  const records = capabilities.flatMap((capability) => {
    const members = allTools.filter((tool) => tool.capability === capability.id);
    const pack = members[0]?.pack as Pack | undefined;
    if (pack === undefined || (args.discipline !== undefined && pack !== args.discipline)) return [];
    const data: ListCapabilitiesData = {
      id: capability.id as CapabilityId,
      title: capability.title,
      pack,
      tools: members.map((tool) => tool.name),
      sources: [...new Set(members.flatMap((tool) => tool.sources as readonly string[]))].sort(),
    };
    return [{ id: `${builtinRecord.source}:${capability.id}`, type: 'capability', title: capability.title, ...builtinRecord, retrievedAt, data }];
  });
  const scope = args.discipline === undefined ? 'all packs' : `the ${args.discipline} pack`;
  const toolCount = records.reduce((sum, record) => sum + record.data.tools.length, 0);
  return { summary: `${records.length} capabilities with ${toolCount} tools in ${scope}.`, records };
}
