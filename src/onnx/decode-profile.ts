/**
 * Where a decoder's CPU goes, split by kind of work: prompt prefill runs, decoding steps (and how many
 * of their positions were padding: rows riding along while their prompt is prefilled, or rows with
 * fewer tokens than the step is wide), and whole-cache copies when rows join and leave. Off unless
 * `OnnxLoadOptions.profile` (haggle's choice: a debugging aid for benches, off by default); then each
 * decoder prints one summary line to stderr whenever it goes idle.
 *
 * CPU time is `process.cpuUsage()`, the whole process (every thread: onnxruntime's pool included); the
 * worker's own thread does nothing else during a timed section, so it is the section's cost unless
 * another thread is busy at the same time.
 */
interface Section {
  count: number;
  wallMs: number;
  cpuMs: number;
}

export class DecodeProfile {
  private readonly sections = new Map<string, Section>();
  /** Counters (positions computed, padding positions, bytes copied, ...). */
  readonly counts = new Map<string, number>();

  count(name: string, n: number): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + n);
  }

  /** Times `run` (sync or async) under `name`. */
  time<T>(name: string, run: () => T): T {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const done = () => {
      const used = process.cpuUsage(cpu);
      const section = this.sections.get(name) ?? { count: 0, wallMs: 0, cpuMs: 0 };
      section.count++;
      section.wallMs += performance.now() - wall;
      section.cpuMs += (used.user + used.system) / 1000;
      this.sections.set(name, section);
    };
    const result = run();
    if (result instanceof Promise) return result.finally(done) as T;
    done();
    return result;
  }

  reset(): void {
    this.sections.clear();
    this.counts.clear();
  }

  /** One line of JSON: every section and counter so far. */
  summary(): string {
    const sections: Record<string, Section> = {};
    for (const [name, s] of this.sections)
      sections[name] = { count: s.count, wallMs: Math.round(s.wallMs), cpuMs: Math.round(s.cpuMs) };
    return JSON.stringify({ decodeProfile: { sections, counts: Object.fromEntries(this.counts) } });
  }
}
