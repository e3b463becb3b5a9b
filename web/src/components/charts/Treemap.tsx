import { hierarchy, rgb, treemap, treemapSquarify, type HierarchyRectangularNode } from 'd3';
import { useMemo, type KeyboardEvent } from 'react';
import type { TreeNode } from '../../lib/api/queryTypes.ts';
import type { DiffNode } from '../../lib/diffTree.ts';
import { formatBytes, formatDelta } from '../../lib/format.ts';

const WIDTH = 1000;
const HEIGHT = 460;
/** Levels drawn below the node shown: enough to see where bytes go without drilling. */
const DEPTH = 4;
const HEADER = 15;
/** One hue per top-level tile, so a section's files stay recognisably its own. */
const HUES = [221, 173, 262, 32, 340, 199, 142, 12];

type Tile = HierarchyRectangularNode<TreeNode>;

const isDiff = (node: TreeNode): node is DiffNode => 'delta' in node;

/** A tile's fill: by its top-level ancestor and depth, or (growth map) by its change. */
function fill(tile: Tile): string {
  const data = tile.data;
  if (isDiff(data)) {
    const before = Math.max(data.old_size, 1);
    // Saturates at doubling (or vanishing): a few bytes on a large file stay pale.
    const share = Math.min(1, Math.abs(data.delta) / before);
    if (data.delta === 0) return `hsl(215, 16%, ${78 - tile.depth * 4}%)`;
    const hue = data.delta > 0 ? 0 : 142;
    return `hsl(${hue}, ${45 + share * 35}%, ${82 - share * 40}%)`;
  }
  const top = tile.ancestors().find((a) => a.depth === 1) ?? tile;
  const hue = HUES[(top.parent?.children?.indexOf(top) ?? 0) % HUES.length];
  // Deeper levels are lighter; symbols get a touch of warmth to stand out from files.
  const lightness = 34 + tile.depth * 11 + (data.kind === 'symbol' ? 4 : 0);
  return `hsl(${hue}, 62%, ${Math.min(lightness, 78)}%)`;
}

/** Relative luminance (WCAG) of a CSS colour. */
function luminance(color: string): number {
  const { r, g, b } = rgb(color);
  const [R, G, B] = [r, g, b].map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
}

/** Black or white, whichever contrasts more with the fill (at least 4.58:1 either way). */
export function labelColor(background: string): string {
  const l = luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
}

const nameOf = (node: TreeNode) => node.display_name ?? node.name;

function describe(tile: Tile, total: number): string {
  const path = tile
    .ancestors()
    .reverse()
    .slice(1)
    .map((a) => nameOf(a.data))
    .join(' › ');
  const data = tile.data;
  const figures = isDiff(data)
    ? `${formatBytes(data.old_size)} → ${formatBytes(data.size)} (${formatDelta(data.delta)})`
    : `${formatBytes(data.size)} · ${((data.size / total) * 100).toFixed(1)}%`;
  return `${path} (${data.kind}) · ${figures}`;
}

/**
 * The size tree below one node as a squarified treemap, four levels deep (for a region:
 * sections, then directories, files and what they hold), labelled where a label fits, in black
 * or white for contrast. Given a growth tree (diffTree) tiles take the larger of the two sizes
 * and are coloured by change: red grew, green shrank, grey unchanged. Clicking a tile with
 * children, or Enter on a labelled tile, drills in to it; on a symbol (or a file without
 * children) it selects it.
 */
export function Treemap({
  node,
  onDrill,
  onSymbol,
}: {
  node: TreeNode;
  /** The nodes from `node`'s child down to the chosen tile, in order. */
  onDrill(chain: TreeNode[]): void;
  onSymbol(symbol: TreeNode): void;
}) {
  const tiles = useMemo(() => {
    const area = (current: TreeNode) =>
      isDiff(current) ? Math.max(current.size, current.old_size) : current.size;
    const root = hierarchy<TreeNode>(node, (current) =>
      (current.children ?? []).filter((c) => area(c) > 0),
    )
      .sum((current) => (current.children?.length ? 0 : area(current)))
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
  const choose = (tile: Tile) => {
    const chain = tile
      .ancestors()
      .reverse()
      .slice(1)
      .map((a) => a.data);
    if (tile.data.children?.length) onDrill(chain);
    else onSymbol(tile.data);
  };
  const onKey = (event: KeyboardEvent, tile: Tile) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    choose(tile);
  };

  return (
    <svg
      className="treemap"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="group"
      aria-label={`Treemap of ${nameOf(node) || 'all regions'}`}
    >
      {tiles.map((tile) => {
        const w = tile.x1 - tile.x0;
        const h = tile.y1 - tile.y0;
        const label = w > 48 && h > 13;
        const background = fill(tile);
        const data = tile.data;
        const text = `${nameOf(data)} · ${isDiff(data) ? formatDelta(data.delta) : formatBytes(data.size)}`;
        const described = describe(tile, total);
        return (
          <g
            key={tile
              .ancestors()
              .map((a) => `${a.data.kind}:${a.data.name}`)
              .join('/')}
            className={`treemap__tile treemap__tile--d${tile.depth}`}
            // Labelled tiles are Tab stops (the others are reached by drilling in).
            {...(label
              ? { role: 'button', tabIndex: 0, 'aria-label': described }
              : { 'aria-hidden': true })}
            onKeyDown={(event) => onKey(event, tile)}
            onClick={(event) => {
              event.stopPropagation();
              choose(tile);
            }}
          >
            <rect
              x={tile.x0}
              y={tile.y0}
              width={w}
              height={h}
              fill={background}
              rx={tile.depth === 1 ? 3 : 1}
            >
              <title>{described}</title>
            </rect>
            {label ? (
              <text
                x={tile.x0 + 4}
                y={tile.y0 + 11}
                className="treemap__label"
                fill={labelColor(background)}
              >
                {truncate(text, Math.floor(w / 6.5))}
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
