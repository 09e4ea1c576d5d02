import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';

/**
 * A JSONL log of numbered records written in index order although they finish in any order: a header
 * line, then record 0, 1, 2, ... Records that finish early wait in memory until all earlier ones are
 * written. One synchronous write per line, so a crash tears at most the last line, which `read` drops.
 */
export class OrderedJsonlLog<Record> {
  private readonly pending = new Map<number, Record>();
  private fd: number | undefined;

  private constructor(
    readonly path: string,
    fd: number,
    private nextIndex: number,
  ) {
    this.fd = fd;
  }

  static holdsData(path: string): boolean {
    return existsSync(path) && statSync(path).size > 0;
  }

  /** Reads the header and the complete record lines; a torn final line is ignored. */
  static read<Header, Record>(
    path: string,
  ): { header: Header | undefined; records: Record[]; completeBytes: number } {
    const buffer = readFileSync(path);
    const completeBytes = buffer.lastIndexOf(0x0a) + 1;
    const lines = buffer
      .subarray(0, completeBytes)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    if (lines.length === 0) return { header: undefined, records: [], completeBytes };
    const [first, ...rest] = lines;
    return {
      header: JSON.parse(first as string) as Header,
      records: rest.map((line) => JSON.parse(line) as Record),
      completeBytes,
    };
  }

  static create<Header, Record>(path: string, header: Header): OrderedJsonlLog<Record> {
    const log = new OrderedJsonlLog<Record>(path, openSync(path, 'w'), 0);
    log.writeLine(header);
    return log;
  }

  /** Continues a log whose first `written` records are on file, cutting off a torn final line. */
  static reopen<Record>(path: string, completeBytes: number, written: number): OrderedJsonlLog<Record> {
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, completeBytes);
    closeSync(fd);
    return new OrderedJsonlLog<Record>(path, openSync(path, 'a'), written);
  }

  /** Adds record `index`; writes it and every waiting successor once all earlier records are written. */
  add(index: number, record: Record): void {
    this.pending.set(index, record);
    for (
      let next = this.pending.get(this.nextIndex);
      next !== undefined;
      next = this.pending.get(this.nextIndex)
    ) {
      this.pending.delete(this.nextIndex);
      this.writeLine(next);
      this.nextIndex++;
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private writeLine(value: unknown): void {
    if (this.fd === undefined) throw new Error(`${this.path}: the log is closed`);
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
  }
}
