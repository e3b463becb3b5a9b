import { hierarchy, treemap, treemapSquarify } from 'd3';
import { useMemo } from 'react';
import type { TreeNode } from '../../lib/api/queryTypes.ts';
import { formatBytes } from '../../lib/format.ts';

const WIDTH = 1000;
const HEIGHT = 460;
const KIND_COLORS: Record<string, string> = {
  region: '#1d4ed8',
  section: '#2563eb',
  directory: '#0d9488',
  file: '#14b8a6',
  archive: '#7c3aed',
  object: '#a855f7',
  symbol: '#f59e0b',
};

/**
 * One level of the size tree as a squarified treemap; each tile shows its children faintly so
 * the next level is visible before drilling in. Clicking a tile with children drills in;
 * clicking a symbol selects it.
 */
export function Treemap({
  node,
  onDrill,
  onSymbol,
}: {
  node: TreeNode;
  onDrill(child: TreeNode): void;
  onSymbol(symbol: TreeNode): void;
}) {
  const tiles = useMemo(() => {
    const root = hierarchy<TreeNode>(node, (current) =>
      current === node || current.kind !== 'symbol'
        ? (current.children ?? []).filter((c) => c.size > 0)
        : [],
    )
      .sum((current) => (current.children?.length ? 0 : current.size))
      .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
    treemap<TreeNode>()
      .tile(treemapSquarify)
      .size([WIDTH, HEIGHT])
      .paddingInner(2)
      .paddingTop((d) => (d.depth === 1 ? 16 : 0))
      .round(true)(root);
    return root;
  }, [node]);

  const total = node.size || 1;
  return (
    <svg
      className="treemap"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Treemap of ${node.name}`}
    >
      {(tiles.children ?? []).map((child) => {
        const { x0, y0, x1, y1 } = child as unknown as {
          x0: number;
          y0: number;
          x1: number;
          y1: number;
        };
        const data = child.data;
        const w = x1 - x0;
        const h = y1 - y0;
        const drillable = Boolean(data.children?.length);
        return (
          <g
            key={`${data.kind}:${data.name}`}
            className="treemap__tile"
            onClick={() => (drillable ? onDrill(data) : data.kind === 'symbol' && onSymbol(data))}
          >
            <rect
              x={x0}
              y={y0}
              width={w}
              height={h}
              fill={KIND_COLORS[data.kind] ?? '#64748b'}
              rx={3}
            />
            {(child.children ?? []).map((grand) => {
              const g = grand as unknown as { x0: number; y0: number; x1: number; y1: number };
              return (
                <rect
                  key={`${grand.data.kind}:${grand.data.name}`}
                  x={g.x0}
                  y={g.y0}
                  width={Math.max(0, g.x1 - g.x0)}
                  height={Math.max(0, g.y1 - g.y0)}
                  className="treemap__inner"
                >
                  <title>{`${grand.data.name} · ${formatBytes(grand.data.size)}`}</title>
                </rect>
              );
            })}
            <title>{`${data.name} (${data.kind}) · ${formatBytes(data.size)} · ${((data.size / total) * 100).toFixed(1)}%`}</title>
            {w > 60 && h > 14 ? (
              <text x={x0 + 5} y={y0 + 12} className="treemap__label">
                {truncate(data.name, Math.floor(w / 7))} · {formatBytes(data.size)}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

const truncate = (text: string, max: number) =>
  text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text;
