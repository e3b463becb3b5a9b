import { hierarchy, treemap, treemapSquarify, type HierarchyRectangularNode } from 'd3';
import { useMemo } from 'react';
import type { TreeNode } from '../../lib/api/queryTypes.ts';
import { formatBytes } from '../../lib/format.ts';

const WIDTH = 1000;
const HEIGHT = 460;
/** Levels drawn below the node shown: enough to see where bytes go without drilling. */
const DEPTH = 4;
const HEADER = 15;
/** One hue per top-level tile, so a section's files stay recognisably its own. */
const HUES = [221, 173, 262, 32, 340, 199, 142, 12];

type Tile = HierarchyRectangularNode<TreeNode>;

function fill(tile: Tile): string {
  const top = tile.ancestors().find((a) => a.depth === 1) ?? tile;
  const hue = HUES[(top.parent?.children?.indexOf(top) ?? 0) % HUES.length];
  // Deeper levels are lighter; symbols get a touch of warmth to stand out from files.
  const lightness = 34 + tile.depth * 11 + (tile.data.kind === 'symbol' ? 4 : 0);
  return `hsl(${hue} 62% ${Math.min(lightness, 78)}%)`;
}

/**
 * The size tree below one node as a squarified treemap, four levels deep (for a region:
 * sections, then directories, files and what they hold), labelled where a label fits.
 * Clicking a tile with children drills in to it; clicking a symbol selects it.
 */
export function Treemap({
  node,
  onDrill,
  onSymbol,
}: {
  node: TreeNode;
  /** The nodes from `node`'s child down to the clicked tile, in order. */
  onDrill(chain: TreeNode[]): void;
  onSymbol(symbol: TreeNode): void;
}) {
  const tiles = useMemo(() => {
    const root = hierarchy<TreeNode>(node, (current) =>
      (current.children ?? []).filter((c) => c.size > 0),
    )
      .sum((current) => (current.children?.length ? 0 : current.size))
      .sort((a, b) => (b.value ?? 0) - (a.value ?? 0));
    const laid = treemap<TreeNode>()
      .tile(treemapSquarify)
      .size([WIDTH, HEIGHT])
      .paddingInner(2)
      .paddingOuter((d) => (d.depth === 0 ? 0 : 1))
      .paddingTop((d) => (d.depth > 0 && d.depth < DEPTH && d.y1 - d.y0 > HEADER * 2 ? HEADER : 0))
      .round(true)(root);
    return laid
      .descendants()
      .filter((d) => d.depth > 0 && d.depth <= DEPTH && d.x1 - d.x0 >= 1 && d.y1 - d.y0 >= 1);
  }, [node]);

  const total = node.size || 1;
  const click = (tile: Tile) => {
    const chain = tile
      .ancestors()
      .reverse()
      .slice(1)
      .map((a) => a.data);
    if (tile.data.kind === 'symbol') onSymbol(tile.data);
    else if (tile.data.children?.length) onDrill(chain);
  };

  return (
    <svg
      className="treemap"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`Treemap of ${node.name}`}
    >
      {tiles.map((tile) => {
        const w = tile.x1 - tile.x0;
        const h = tile.y1 - tile.y0;
        const label = w > 48 && h > 13;
        return (
          <g
            key={tile
              .ancestors()
              .map((a) => `${a.data.kind}:${a.data.name}`)
              .join('/')}
            className={`treemap__tile treemap__tile--d${tile.depth}`}
            onClick={(event) => {
              event.stopPropagation();
              click(tile);
            }}
          >
            <rect
              x={tile.x0}
              y={tile.y0}
              width={w}
              height={h}
              fill={fill(tile)}
              rx={tile.depth === 1 ? 3 : 1}
            >
              <title>{`${tile
                .ancestors()
                .reverse()
                .slice(1)
                .map((a) => a.data.name)
                .join(
                  ' › ',
                )} (${tile.data.kind}) · ${formatBytes(tile.data.size)} · ${((tile.data.size / total) * 100).toFixed(1)}%`}</title>
            </rect>
            {label ? (
              <text x={tile.x0 + 4} y={tile.y0 + 11} className="treemap__label">
                {truncate(
                  `${tile.data.name} · ${formatBytes(tile.data.size)}`,
                  Math.floor(w / 6.5),
                )}
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
