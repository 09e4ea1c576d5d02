/** A usage problem (bad argument, unreadable file): the CLI prints one line and exits with code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
