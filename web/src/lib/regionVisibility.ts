import { useState } from 'react';

/**
 * Regions as shown by default (the query service marks placeholders, unused and configured-hidden
 * regions `hidden`) with the others one click away.
 */
export function useRegionVisibility<T extends { hidden: boolean }>(rows: readonly T[]) {
  const [showHidden, setShowHidden] = useState(false);
  const hiddenCount = rows.filter((row) => row.hidden).length;
  return {
    shown: showHidden ? [...rows] : rows.filter((row) => !row.hidden),
    hiddenCount,
    showHidden,
    toggle: () => setShowHidden(!showHidden),
  };
}
