/** The `format` of a run file's header line: marks a JSONL file as a haggle run. */
export const RUN_FILE_FORMAT = 'haggle-run';
/** The version of the run file's layout that this haggle writes and reads. */
export const RUN_FILE_VERSION = 1;
