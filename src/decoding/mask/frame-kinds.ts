import { KeyLeaf } from '../grammar/key-leaf.js';
import { LiteralLeaf, WhitespaceLeaf } from '../grammar/literal-leaf.js';
import { DEAD } from '../grammar/nodes.js';
import { NumberLeaf } from '../grammar/number-leaf.js';
import type { Frame } from '../grammar/stack-machine.js';
import { StringLeaf } from '../grammar/string-leaf.js';

// What kind of position a frame is, as the trie walk and precompute tell positions apart.

/**
 * Whether a frame's mask comes from a per-leaf shortcut (a literal, a number; see `TrieWalk.below`), the
 * positions `precompute` stores: the enum values, keys, punctuation and numbers XGrammar and
 * llguidance precompute too. The document's end reads nothing.
 */
export function hasShortcut(frame: Frame): boolean {
  const node = frame.node;
  // Free whitespace has a shortcut too, but what follows it is every value: left to decoding time.
  return (
    node === null ||
    node instanceof LiteralLeaf ||
    (node.kind === 'leaf' && !(node instanceof WhitespaceLeaf) && node.alphabet() !== null)
  );
}

/** Whether a frame reads a string value (not a key: what follows a key depends on which it is). */
export function isStringValue(frame: Frame): frame is Frame & { node: StringLeaf } {
  return frame.node instanceof StringLeaf && !(frame.node instanceof KeyLeaf);
}

/** Whether a frame is a string value before its opening quote. */
export function opensString(frame: Frame): boolean {
  return (
    isStringValue(frame) && frame.node.step(frame.state, 0x22) !== DEAD && !frame.node.isInside(frame.state)
  );
}

/** Whether a frame is a number that has read a byte (its later positions go after the skeleton's). */
export function insideNumber(frame: Frame): boolean {
  return frame.node instanceof NumberLeaf && frame.state !== '';
}

/** Whether a frame is a string value right after its opening quote. */
export function justOpened(frame: Frame): boolean {
  return (
    isStringValue(frame) && frame.node.isInside(frame.state) && (frame.state as { units: number }).units === 0
  );
}

export function isInsideString(frame: Frame): boolean {
  return frame.node instanceof StringLeaf && frame.node.isInside(frame.state);
}
