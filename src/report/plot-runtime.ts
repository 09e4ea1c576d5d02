import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { ChartLibraryError } from './errors.js';

/** The parts of `@observablehq/plot` the charts use. */
export type PlotModule = typeof import('@observablehq/plot');

/** The DOM calls the charts make on what Plot draws (the project compiles without the DOM's types). */
export interface ChartElement {
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | null;
  querySelector(selector: string): ChartElement | null;
  querySelectorAll(selector: string): Iterable<ChartElement>;
  append(...nodes: ChartElement[]): void;
  appendChild(node: ChartElement): void;
  insertBefore(node: ChartElement, before: ChartElement | null): void;
  replaceWith(node: ChartElement): void;
  textContent: string | null;
  readonly outerHTML: string;
}

/** The document the charts draw in. */
export interface ChartDocument {
  createElementNS(namespace: string, name: string): ChartElement;
}

/** What the charts need from the plotting library: the library, and a document for it to draw in. */
export interface PlotRuntime {
  Plot: PlotModule;
  document: ChartDocument;
}

let runtime: PlotRuntime | undefined;

/**
 * Plot and a DOM for it, loaded on the first chart, not when the module is imported: an app that imports
 * `haggle/report` to write a run's report without charts, or a module that reaches the report through
 * another layer, should not load a plotting library and a DOM (haggle's choice). `require` keeps
 * rendering synchronous (`renderReport` returns a string); Node 20.19+ can `require` Plot's ES modules.
 * Plot draws into a document; linkedom's is a small DOM that serialises the SVG Plot builds.
 */
export function plotRuntime(): PlotRuntime {
  if (runtime) return runtime;
  try {
    const require = createRequire(moduleUrl());
    const Plot = require('@observablehq/plot') as PlotModule;
    const { DOMParser } = require('linkedom') as typeof import('linkedom');
    // An XML document, so attributes serialise escaped as XML needs (an HTML one leaves `&` and `<`).
    const document = new DOMParser().parseFromString(
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'image/svg+xml',
    );
    runtime = { Plot, document: document as unknown as ChartDocument };
    return runtime;
  } catch (error) {
    throw new ChartLibraryError(error);
  }
}

/** `import.meta.url` in ESM; in the CommonJS build, where esbuild empties `import.meta`, `__filename`. */
function moduleUrl(): string {
  const meta = import.meta as { url?: string };
  if (typeof meta.url === 'string') return meta.url;
  return pathToFileURL(__filename).href;
}
