import { scaleLinear } from 'd3';
import { useState } from 'react';
import type { CommitReportData } from '../../lib/api/queryTypes.ts';
import { formatBytes, formatPercent, hex } from '../../lib/format.ts';

const SECTION_COLORS: Record<string, string> = {
  code: '#2563eb',
  rodata: '#60a5fa',
  data: '#14b8a6',
  bss: '#f59e0b',
};
const colorOf = (type: string, name: string) =>
  SECTION_COLORS[type] ?? (name.includes('bss') ? SECTION_COLORS.bss! : '#a855f7');

/**
 * Each region as a bar in address order, its sections drawn to scale at their offsets, so gaps,
 * alignment holes and free space are visible. Hover names the section.
 */
export function MemoryLayoutMap({
  regions,
  sections,
}: Pick<CommitReportData, 'regions' | 'sections'>) {
  const [hover, setHover] = useState<string | null>(null);
  const ordered = [...regions].sort((a, b) => a.address - b.address);
  return (
    <div className="layout-map">
      {ordered.map((region) => {
        const span = Math.max(region.limit_size, region.used_size, 1);
        const x = scaleLinear()
          .domain([region.address, region.address + span])
          .range([0, 100]);
        const inside = sections
          .filter((section) => section.region === region.name && section.size > 0)
          .sort((a, b) => a.address - b.address);
        return (
          <div key={region.name} className="layout-map__region">
            <div className="layout-map__label">
              <strong>{region.display_name}</strong>
              <span className="mono">
                {hex(region.address)} – {hex(region.address + span)}
              </span>
              <span>
                {formatBytes(region.used_size)} of {formatBytes(region.limit_size)} (
                {formatPercent(region.used_size, region.limit_size)})
              </span>
            </div>
            <svg
              className="layout-map__bar"
              viewBox="0 0 100 10"
              preserveAspectRatio="none"
              role="img"
              aria-label={`${region.display_name} layout`}
            >
              <rect width={100} height={10} className="layout-map__free" />
              {inside.map((section) => {
                const id = `${region.name}/${section.name}@${section.address}`;
                const left = Math.max(0, x(section.address));
                const width = Math.max(
                  0.15,
                  Math.min(100, x(section.address + section.size)) - left,
                );
                return (
                  <rect
                    key={id}
                    x={left}
                    width={width}
                    height={10}
                    fill={colorOf(section.type, section.name)}
                    opacity={hover === null || hover === id ? 1 : 0.45}
                    onMouseEnter={() => setHover(id)}
                    onMouseLeave={() => setHover(null)}
                  >
                    <title>
                      {`${section.name} · ${formatBytes(section.size)} · ${hex(section.address)}`}
                    </title>
                  </rect>
                );
              })}
            </svg>
            <div className="layout-map__sections">
              {inside.map((section) => (
                <span key={`${section.name}@${section.address}`} className="layout-map__chip">
                  <span
                    className="chart__swatch"
                    style={{ background: colorOf(section.type, section.name) }}
                  />
                  {section.name} <span className="muted">{formatBytes(section.size)}</span>
                </span>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
