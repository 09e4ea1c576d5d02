/**
 * A trie over the code points of a finite set of object keys. A key leaf walks it alongside the bytes
 * of a key to know which names the key can still become; a key that has left the trie is none of them.
 */
export class NameTrie {
  /** Per node: its children as parallel sorted lists of code points and node indices. */
  private readonly codePoints: number[][] = [[]];
  private readonly childNodes: number[][] = [[]];
  /** Per node: the tag of the name that ends there, or -1. */
  private readonly tags: number[] = [-1];

  /** `names[i]` gets the tag `tags[i]` (a later duplicate keeps the first tag). */
  constructor(names: readonly string[], tags: readonly number[]) {
    names.forEach((name, i) => {
      let node = 0;
      for (const ch of name) node = this.childOrAdd(node, ch.codePointAt(0) as number);
      if (this.tags[node] === -1) this.tags[node] = tags[i] as number;
    });
  }

  get size(): number {
    return this.tags.length;
  }

  /** The child of `node` by `cp`, or -1 (the key is then no name of the trie). */
  child(node: number, cp: number): number {
    if (node < 0) return -1;
    const list = this.codePoints[node] as number[];
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = list[mid] as number;
      if (at === cp) return (this.childNodes[node] as number[])[mid] as number;
      if (at < cp) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The sorted code points that lead somewhere from `node`, and the nodes they lead to. */
  children(node: number): { codePoints: readonly number[]; nodes: readonly number[] } {
    return { codePoints: this.codePoints[node] as number[], nodes: this.childNodes[node] as number[] };
  }

  /** The tag of the name ending at `node`, or -1 (none ends there, or `node` is outside the trie). */
  tag(node: number): number {
    return node < 0 ? -1 : (this.tags[node] as number);
  }

  /**
   * Per node, whether some name below it (or at it) has a tag that `keep` accepts: computed bottom-up
   * once (children always have higher indices than their parent).
   */
  reaching(keep: (tag: number) => boolean): Uint8Array {
    const out = new Uint8Array(this.tags.length);
    for (let node = this.tags.length - 1; node >= 0; node--) {
      const tag = this.tags[node] as number;
      let live = tag >= 0 && keep(tag);
      for (const child of this.childNodes[node] as number[]) if (out[child]) live = true;
      out[node] = live ? 1 : 0;
    }
    return out;
  }

  /**
   * The trie's structure as text, with each node's tag reduced to what a key leaf's liveness reads
   * (`a`: an available name, `n`: no name, `b`: a blocked one): equal shapes refuse the same bytes.
   */
  shape(): string {
    let out = '';
    for (let node = 0; node < this.tags.length; node++) {
      const tag = this.tags[node] as number;
      const kind = tag >= 0 ? 'a' : tag === -1 ? 'n' : 'b';
      out += `${kind}${(this.codePoints[node] as number[]).join(',')}>${(this.childNodes[node] as number[]).join(',')};`;
    }
    return out;
  }

  private childOrAdd(node: number, cp: number): number {
    const found = this.child(node, cp);
    if (found >= 0) return found;
    const created = this.tags.length;
    this.codePoints.push([]);
    this.childNodes.push([]);
    this.tags.push(-1);
    const list = this.codePoints[node] as number[];
    let at = 0;
    while (at < list.length && (list[at] as number) < cp) at++;
    list.splice(at, 0, cp);
    (this.childNodes[node] as number[]).splice(at, 0, created);
    return created;
  }
}
