export function computeTotals(report) {
    const regions = {};
    const sections = [];
    for (const [name, region] of Object.entries(report.memory_layout)) {
        regions[name] = {
            address: region.address,
            type: region.type ?? 'UNKNOWN',
            limit_size: region.limit_size,
            used_size: region.used_size,
            free_size: region.free_size ?? region.limit_size - region.used_size,
        };
        for (const section of region.sections ?? []) {
            sections.push({
                region: name,
                name: section.name,
                address: section.address,
                size: section.size,
                type: section.type ?? 'data',
            });
        }
    }
    return { regions, sections };
}
/** Totals as read back from the report row's JSON columns. */
export function storedTotals(regionTotals, sectionTotals) {
    return {
        regions: (regionTotals ?? {}),
        sections: Array.isArray(sectionTotals) ? sectionTotals : [],
    };
}
