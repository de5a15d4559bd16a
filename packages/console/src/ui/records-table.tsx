import type { ComponentChildren } from 'preact';

export interface RecordsTableProps<T> {
  /** The table's name; read by screen readers only, unless `captionShown`. */
  caption: string;
  captionShown?: boolean;
  columns: readonly string[];
  rows: readonly T[];
  /** A record's <tr>, keyed, its first cell a row header (<th scope="row">) with data-label like the rest. */
  row: (record: T) => ComponentChildren;
  /** Said instead of a table without rows; none: nothing is shown. */
  empty?: string;
}

/** Records in a table where there is room, one card per record on a phone (the cells' data-label names them). */
export function RecordsTable<T>({ caption, captionShown = false, columns, rows, row, empty }: RecordsTableProps<T>) {
  if (rows.length === 0) return empty === undefined ? null : <p>{empty}</p>;
  return (
    <table class="records">
      <caption class={captionShown ? undefined : 'visually-hidden'}>{caption}</caption>
      <thead>
        <tr>
          {columns.map((title) => (
            <th key={title} scope="col">
              {title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{rows.map(row)}</tbody>
    </table>
  );
}
