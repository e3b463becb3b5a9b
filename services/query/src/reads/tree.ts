import type { RegionPlan, ReportSymbolRow, TreeNode, TreeNodeKind } from '@memtrail/contracts';

const UNKNOWN = '(unknown)';

interface Building {
  node: TreeNode;
  index: Map<string, Building>;
}

function child(parent: Building, name: string, kind: TreeNodeKind): Building {
  const key = `${kind}\u0000${name}`;
  let found = parent.index.get(key);
  if (!found) {
    found = { node: { name, kind, size: 0, symbols: 0, children: [] }, index: new Map() };
    parent.index.set(key, found);
    parent.node.children!.push(found.node);
  }
  return found;
}

/** Path of groups below the section: directories then file, or archive then object file. */
function groupPath(s: ReportSymbolRow, groupBy: 'source' | 'object'): [string, TreeNodeKind][] {
  if (groupBy === 'object') {
    return [
      [s.archive || UNKNOWN, 'archive'],
      [s.object_file || UNKNOWN, 'object'],
    ];
  }
  if (!s.source_file) return [[UNKNOWN, 'file']];
  const parts = s.source_file.split('/').filter((p, i) => p !== '' || i === 0);
  const file = parts.pop()!;
  return [...parts.map((p): [string, TreeNodeKind] => [p || '/', 'directory']), [file, 'file']];
}

function sortAndFinish(node: TreeNode, keepSymbols: boolean): void {
  if (!node.children) return;
  if (!keepSymbols && node.children.every((c) => c.kind === 'symbol')) {
    delete node.children;
    return;
  }
  node.children.sort((a, b) => b.size - a.size || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const c of node.children) sortAndFinish(c, keepSymbols);
}

/**
 * region → section → directories/file (or archive/object) → symbol; sizes add up from the
 * leaves, children largest first. Symbols outside every region sit under `(unknown)`.
 */
export function buildTree(
  symbols: ReportSymbolRow[],
  groupBy: 'source' | 'object',
  includeSymbols: boolean,
  /** Names regions as the region configuration shows them. */
  plan?: RegionPlan,
): TreeNode {
  const root: Building = {
    node: { name: '', kind: 'root', size: 0, symbols: 0, children: [] },
    index: new Map(),
  };
  for (const s of symbols) {
    const chain: Building[] = [root];
    let at = child(root, s.region || UNKNOWN, 'region');
    chain.push(at);
    at = child(at, s.section || UNKNOWN, 'section');
    chain.push(at);
    for (const [name, kind] of groupPath(s, groupBy)) {
      at = child(at, name, kind);
      chain.push(at);
    }
    if (includeSymbols) {
      at.node.children!.push({
        name: s.full_name || s.name,
        kind: 'symbol',
        size: s.size,
        symbols: 1,
      });
    }
    for (const b of chain) {
      b.node.size += s.size;
      b.node.symbols += 1;
    }
  }
  sortAndFinish(root.node, includeSymbols);
  for (const region of root.node.children ?? []) {
    const shown = plan?.displayName(region.name);
    if (shown !== undefined && shown !== region.name) region.display_name = shown;
  }
  return root.node;
}
