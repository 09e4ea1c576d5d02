/**
 * What onnxruntime's CPU `GroupQueryAttention` says when a run asks it for several positions a row
 * over a past with more than one row (its kernel computes a multi-position step over a KV cache for a
 * single sequence only): `batch_size must be 1 when sequence_length > 1 and past context is given`.
 * haggle's q4 and q8 exports are built on that operator (`fuseCpuOps`), and so are other runtimes'
 * exports a user may bring; the batch decoder, told so once, feeds such batches one position a step.
 */
export const MULTI_POSITION_REFUSAL = /batch_size must be 1 when sequence_length > 1 and past context/;

/** The run failed because the graph refuses multi-position steps at batch > 1 over a past. */
export function isMultiPositionRefusal(error: unknown): boolean {
  return MULTI_POSITION_REFUSAL.test(error instanceof Error ? error.message : String(error));
}
