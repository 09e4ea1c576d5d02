/**
 * The columns of the terminal a CLI table is printed to, or undefined when the output is not a terminal
 * (a pipe or a file gets the full aligned table, one row a line, for tools to read: haggle's choice).
 */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0
    ? stream.columns
    : undefined;
}
