/**
 * The HTML report of a run (or a tournament): charts, intervals, comparisons with a reference run or
 * the model card's numbers, and sampled transcripts. `renderReport` is pure; `writeReport` reads a run
 * file and writes the page (Node).
 * @packageDocumentation
 * @module haggle/report
 */
export * from '../report/index.js';
