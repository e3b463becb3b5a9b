import type { TreeNode } from '@memtrail/contracts';

/** A size tree of two builds: each node's bytes in the old and the new one. */
export interface DiffNode extends TreeNode {
  old_size: number;
  /** new − old bytes. */
  delta: number;
  children?: DiffNode[];
}

/**
 * The trees of two builds merged node by node (same kind and name under the same parent), so a
 * treemap can show where the bytes grew or shrank: a node only one build has counts 0 in the
 * other. `size` is the new build's bytes.
 */
export function diffTree(before: TreeNode | undefined, after: TreeNode | undefined): DiffNode {
  const base = (after ?? before)!;
  const oldSize = before?.size ?? 0;
  const newSize = after?.size ?? 0;
  const node: DiffNode = {
    name: base.name,
    kind: base.kind,
    ...(base.display_name ? { display_name: base.display_name } : {}),
    size: newSize,
    old_size: oldSize,
    delta: newSize - oldSize,
    symbols: after?.symbols ?? 0,
  };
  if (before?.children || after?.children) {
    const key = (child: TreeNode) => `${child.kind}\u0000${child.name}`;
    const olds = new Map((before?.children ?? []).map((child) => [key(child), child]));
    const children: DiffNode[] = [];
    for (const child of after?.children ?? []) {
      children.push(diffTree(olds.get(key(child)), child));
      olds.delete(key(child));
    }
    for (const gone of olds.values()) children.push(diffTree(gone, undefined));
    node.children = children.sort(
      (a, b) =>
        Math.abs(b.delta) - Math.abs(a.delta) ||
        Math.max(b.size, b.old_size) - Math.max(a.size, a.old_size),
    );
  }
  return node;
}
