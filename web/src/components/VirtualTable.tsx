import { useEffect, useState, type ReactNode } from 'react';

export interface Column<T> {
  key: string;
  label: string;
  numeric?: boolean;
  width: string;
  /** False: the column does not sort. */
  sortable?: boolean;
  render(row: T): ReactNode;
}

const ROW_HEIGHT = 32;
const VIEW_HEIGHT = 560;
const OVERSCAN = 10;

/**
 * A table that renders only the rows in view, so 50,000 symbols scroll smoothly. Rows come by
 * index: from an array, or from pages a server sends as they scroll into view (`row` answers
 * undefined until its page is there, and `onRange` asks for the rows in view). Headers sort;
 * the caller owns the sort state and the row order (and gives the table a new `key` when the
 * rows change, so it starts at the top). The body is a keyboard-scrollable region, and on
 * narrow screens the table scrolls sideways inside its card.
 */
export function VirtualTable<T>({
  count,
  row,
  onRange,
  columns,
  rowKey,
  sort,
  onSort,
  label,
}: {
  count: number;
  row(index: number): T | undefined;
  onRange?(first: number, last: number): void;
  columns: Column<T>[];
  rowKey(row: T, index: number): string;
  sort: { key: string; descending: boolean };
  onSort(key: string): void;
  label: string;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const template = columns.map((column) => column.width).join(' ');
  useEffect(() => onRange?.(first, last), [onRange, first, last]);

  const cells: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const item = row(index);
    cells.push(
      <div
        role="row"
        aria-rowindex={index + 2}
        key={item === undefined ? `loading-${index}` : rowKey(item, index)}
        className={`vtable__row${item === undefined ? ' vtable__row--loading' : ''}`}
        style={{ top: index * ROW_HEIGHT, gridTemplateColumns: template }}
      >
        {columns.map((column) => (
          <div role="cell" key={column.key} className={`vtable__td${column.numeric ? ' num' : ''}`}>
            {item === undefined ? null : column.render(item)}
          </div>
        ))}
      </div>,
    );
  }

  return (
    <div className="vtable" role="table" aria-label={label} aria-rowcount={count + 1}>
      <div className="vtable__inner">
        <div
          className="vtable__head"
          role="row"
          aria-rowindex={1}
          style={{ gridTemplateColumns: template }}
        >
          {columns.map((column) => {
            const sorted = sort.key === column.key;
            return (
              <div
                role="columnheader"
                key={column.key}
                className={`vtable__th${column.numeric ? ' num' : ''}`}
                aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : undefined}
              >
                {column.sortable === false ? (
                  column.label
                ) : (
                  <button type="button" className="vtable__sort" onClick={() => onSort(column.key)}>
                    {column.label}
                    <span aria-hidden="true">{sorted ? (sort.descending ? ' ↓' : ' ↑') : ''}</span>
                  </button>
                )}
              </div>
            );
          })}
        </div>
        <div
          className="vtable__body"
          role="rowgroup"
          tabIndex={0}
          aria-label={`${label}: ${count.toLocaleString('en-US')} rows, scroll with the arrow keys`}
          style={{ height: Math.min(VIEW_HEIGHT, Math.max(ROW_HEIGHT, count * ROW_HEIGHT)) }}
          onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
        >
          <div style={{ height: count * ROW_HEIGHT, position: 'relative' }}>{cells}</div>
        </div>
      </div>
    </div>
  );
}

/** Sort state that flips direction on the same column and starts numbers descending. */
export function nextSort(
  current: { key: string; descending: boolean },
  key: string,
  numeric: boolean,
) {
  return current.key === key
    ? { key, descending: !current.descending }
    : { key, descending: numeric };
}
