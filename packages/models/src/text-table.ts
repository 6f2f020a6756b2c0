/** Fixed-width text tables: the CLI's tables are read side by side with the seed's. */
export interface Column {
  readonly header: string;
  readonly width: number;
  /** @defaultValue 'right' (numbers line up on their last digit) */
  readonly align?: 'left' | 'right';
}

function pad(text: string, column: Column): string {
  return column.align === 'left' ? text.padEnd(column.width) : text.padStart(column.width);
}

/** Header line plus one line per row; cells beyond the columns are dropped. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) =>
    columns
      .map((column, i) => pad(cells[i] ?? '', column))
      .join('')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...rows.map(line)];
}

/** toFixed, with 'n/a' for a value that does not exist (e.g. a mean over nothing). */
export function fixed(value: number | null, digits: number): string {
  return value === null ? 'n/a' : value.toFixed(digits);
}

export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}
