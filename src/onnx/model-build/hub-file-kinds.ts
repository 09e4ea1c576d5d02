const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The files a build needs from a model or adapter repository, and the most bytes a listing may claim
 * for each (haggle's choice: weights in safetensors, configs, tokenizer and chat template; not
 * READMEs, pickles or other exports). The ceilings are far above any real file of the kind, so a
 * real repository always passes, while a listing that claims 10^15 bytes for a file is refused before
 * a byte is written (a hostile endpoint once streamed 15 GB of `.part` against such a claim):
 * - small JSON and text files (config.json, an index, a chat template): 16 MiB; a config.json is a
 *   few KB and a 400-shard index well under a megabyte;
 * - the tokenizer's own files (tokenizer.json, vocab.json, merges.txt): 256 MiB; a 150,000-token
 *   vocabulary's tokenizer.json is about 11 MB;
 * - a safetensors file: 64 GiB; checkpoints are shared in shards of a few GB.
 */
const KINDS: { pattern: RegExp; maxBytes: number; kind: string }[] = [
  { pattern: /^config\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^generation_config\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^model(-\d+-of-\d+)?\.safetensors$/, maxBytes: 64 * GiB, kind: 'a weights file' },
  { pattern: /^model\.safetensors\.index\.json$/, maxBytes: 16 * MiB, kind: 'an index' },
  { pattern: /^tokenizer\.json$/, maxBytes: 256 * MiB, kind: 'a tokenizer' },
  { pattern: /^tokenizer_config\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^special_tokens_map\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^added_tokens\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^vocab\.json$/, maxBytes: 256 * MiB, kind: 'a tokenizer' },
  { pattern: /^merges\.txt$/, maxBytes: 256 * MiB, kind: 'a tokenizer' },
  { pattern: /^chat_template\.jinja$/, maxBytes: 16 * MiB, kind: 'a chat template' },
  { pattern: /^adapter_config\.json$/, maxBytes: 16 * MiB, kind: 'a config' },
  { pattern: /^adapter_model\.safetensors$/, maxBytes: 64 * GiB, kind: 'a weights file' },
];

/** What a pull takes of a repository's file, and the most bytes its listing may claim for it. */
export function wantedFile(path: string): { maxBytes: number; kind: string } | undefined {
  return KINDS.find((kind) => kind.pattern.test(path));
}
