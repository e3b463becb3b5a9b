import { useState, type ReactNode } from 'react';

export interface Column<T> {
  key: string;
  label: string;
  numeric?: boolean;
  width: string;
  render(row: T): ReactNode;
}

const ROW_HEIGHT = 32;
const VIEW_HEIGHT = 560;
const OVERSCAN = 10;

/**
 * A table that renders only the rows in view, so 50,000 symbols scroll smoothly. Headers sort;
 * the caller owns the sort state and the row order.
 */
export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  sort,
  onSort,
  label,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey(row: T, index: number): string;
  sort: { key: string; descending: boolean };
  onSort(key: string): void;
  label: string;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_HEIGHT) / ROW_HEIGHT) + OVERSCAN);
  const template = columns.map((column) => column.width).join(' ');

  return (
    <div className="vtable" role="table" aria-label={label} aria-rowcount={rows.length}>
      <div className="vtable__head" role="row" style={{ gridTemplateColumns: template }}>
        {columns.map((column) => (
          <button
            type="button"
            role="columnheader"
            key={column.key}
            className={`vtable__th${column.numeric ? ' num' : ''}`}
            aria-sort={
              sort.key === column.key ? (sort.descending ? 'descending' : 'ascending') : 'none'
            }
            onClick={() => onSort(column.key)}
          >
            {column.label}
            {sort.key === column.key ? (sort.descending ? ' ↓' : ' ↑') : ''}
          </button>
        ))}
      </div>
      <div
        className="vtable__body"
        style={{ height: Math.min(VIEW_HEIGHT, Math.max(ROW_HEIGHT, rows.length * ROW_HEIGHT)) }}
        onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      >
        <div style={{ height: rows.length * ROW_HEIGHT, position: 'relative' }}>
          {rows.slice(first, last).map((row, offset) => (
            <div
              role="row"
              key={rowKey(row, first + offset)}
              className="vtable__row"
              style={{ top: (first + offset) * ROW_HEIGHT, gridTemplateColumns: template }}
            >
              {columns.map((column) => (
                <div
                  role="cell"
                  key={column.key}
                  className={`vtable__td${column.numeric ? ' num' : ''}`}
                >
                  {column.render(row)}
                </div>
              ))}
            </div>
          ))}
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
