/**
 * Ids for the nodes a grammar makes while decoding (`ListNode.itemFor`'s choices of the values not used
 * yet, `ObjectNode`'s key leaves), one counter per compiled grammar: far above any compiled node's id, so
 * the two never meet in the grammar's mask cache, whose keys start with a node's id.
 */
export class DynamicIds {
  private next = 2 ** 40;

  /** A new id, never handed out before by this counter. */
  take(): number {
    return this.next++;
  }
}
