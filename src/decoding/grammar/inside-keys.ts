import { BoundedCache } from '../../internal/bounded-cache.js';

/**
 * The numbers the inside-string cache keys its masks by, owned by that cache (so by the vocabulary's
 * `GrammarCompiler`): an id per object a key names (a leaf's class, a pattern's automaton) and an id per
 * key-leaf shape (its names, automata and bounds as text). Both were module-level before; the shapes
 * grow with every new set of property names a client sends to `haggle serve`, so they are bounded.
 */
export class InsideKeys {
  private readonly objects = new WeakMap<object, number>();
  private nextObject = 0;
  private readonly shapes: BoundedCache<string, number>;
  private nextShape = 0;

  constructor(
    /** Most key-leaf shapes kept; the least recently used go first. */
    shapeLimit: number,
  ) {
    this.shapes = new BoundedCache(shapeLimit, 'use');
  }

  /** A number for `object`, the same for as long as it lives (a WeakMap: dropped objects go with it). */
  objectId(object: object): number {
    let id = this.objects.get(object);
    if (id === undefined) {
      id = this.nextObject++;
      this.objects.set(object, id);
    }
    return id;
  }

  /**
   * A number for a key-leaf shape. Forgetting one is safe: a shape seen again after it was dropped gets
   * a new number, so its masks are computed again; numbers are never reused, so no two shapes share one.
   */
  shapeId(text: string): number {
    return this.shapes.getOrCreate(text, () => this.nextShape++);
  }

  /** Key-leaf shapes kept now. */
  get shapeCount(): number {
    return this.shapes.size;
  }

  /** Most key-leaf shapes kept. */
  get shapeLimit(): number {
    return this.shapes.limit;
  }
}
