package org.qsnet.elan3;

/**
 * {@code ELAN_LOCATION}: a process's node and context, both relative to its capability.
 *
 * @param node    {@code loc_node}: physical node minus {@code LowNode}.
 * @param context {@code loc_context}: context minus {@code LowContext}.
 */
public record ElanLocation(int node, int context)
{
}
