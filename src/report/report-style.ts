/**
 * The report's stylesheet, inlined so the file stands alone. The page uses the window's width: cards,
 * charts and transcripts flow into as many columns as fit (haggle's choice: a wide screen shows two
 * charts side by side rather than one narrow column), and charts scale with their column.
 */
export const REPORT_STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2937; margin: 24px 0; padding: 0 clamp(16px, 3vw, 48px); max-width: 2400px; }
h1 { font-size: 22px; margin: 0; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; }
.note, .caption { color: #6b7280; font-size: 12px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 16px; }
.card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 16px; min-width: 0; }
.card h2 { margin: 4px 0; font-size: 16px; } .card h3 { font-size: 13px; margin: 8px 0 2px; } .big { font-size: 20px; font-weight: 600; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; font-size: 12px; margin: 4px 0; }
.card dd { margin: 0; min-width: 0; } .card code { word-break: break-all; }
.field { display: inline-block; margin-right: 10px; } .field b { font-weight: 600; color: #4b5563; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 4px 8px; text-align: right; vertical-align: top; }
th:first-child, td:first-child { text-align: left; }
/* A number, an interval or a name never breaks inside itself; a wide table scrolls in its own box. */
td { white-space: nowrap; font-variant-numeric: tabular-nums; } .table-scroll { overflow-x: auto; }
table.labels td:nth-child(2) { text-align: left; }
tr.significant td:nth-child(4) { font-weight: 600; }
thead th { background: #f9fafb; }
table.outcomes { max-width: 900px; } table.outcomes td:nth-child(2) { text-align: left; color: #4b5563; }
td.bar-cell, th.bar-cell { width: 220px; text-align: left; white-space: nowrap; }
.share-bar { display: inline-block; height: 10px; max-width: 150px; background: #6b7280; margin-right: 6px; vertical-align: middle; border-radius: 2px; }
.share-bar.kind-deal { background: #16a34a; } .share-bar.kind-no-deal { background: #9ca3af; } .share-bar.kind-failed { background: #dc2626; }
tr.kind-failed td:first-child { color: #b91c1c; font-weight: 600; }
table.references td:first-child { max-width: 520px; white-space: normal; } tr.run-model td:first-child { font-weight: 600; }
.tag { font-size: 11px; background: #dbeafe; color: #1e40af; border-radius: 4px; padding: 0 5px; font-weight: 500; }
td.verdict.consistent { color: #15803d; } td.verdict.inconsistent { color: #b91c1c; font-weight: 600; } td.verdict.too-few { color: #92400e; } td.verdict.cannot-tell { color: #6b7280; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 8px 32px; }
figure.chart { margin: 16px 0 24px; min-width: 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
figure.chart svg { width: 100%; height: auto; max-width: 1000px; }
.failures { border-left: 3px solid #dc2626; padding: 4px 12px; margin: 8px 0; } .failure-headline { font-weight: 600; color: #991b1b; }
table.errors td.error-message { white-space: normal; text-align: left; font-family: ui-monospace, monospace; font-size: 12px; word-break: break-word; }
table.outcomes tr.unfinished td { color: #991b1b; } .big.failed { color: #991b1b; }
svg text { font-size: 11px; fill: #374151; } svg .grid { stroke: #e5e7eb; } svg .axis { stroke: #9ca3af; }
svg.forest .ci { stroke: #2563eb; stroke-width: 3; stroke-linecap: round; } svg.forest .estimate { fill: #1e3a8a; }
svg.forest .published { fill: #f59e0b; stroke: #92400e; } svg.forest .published.inconsistent { fill: #ef4444; stroke: #7f1d1d; } svg.forest .published.consistent { fill: #22c55e; stroke: #14532d; } svg.forest .published.cannot-tell { fill: #d1d5db; stroke: #4b5563; }
.transcripts { display: grid; grid-template-columns: repeat(auto-fit, minmax(380px, 1fr)); gap: 16px; }
.transcript { border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 12px; min-width: 0; }
.transcript header h3 { margin: 2px 0; font-size: 14px; }
.dialogue { list-style: none; margin: 8px 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.turn { max-width: 82%; border-radius: 10px; padding: 5px 9px; font-size: 13px; }
.turn.buyer { align-self: flex-start; background: #eff6ff; border: 1px solid #bfdbfe; }
.turn.seller { align-self: flex-end; background: #fefce8; border: 1px solid #fde68a; }
.turn-head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.turn .who { font-weight: 600; text-transform: capitalize; } .turn .action { color: #374151; }
.turn .price { font-weight: 600; } .turn .time { margin-left: auto; color: #6b7280; font-size: 11px; }
.turn .labels { margin-top: 2px; } .label { display: inline-block; font-size: 11px; background: #e5e7eb; border-radius: 4px; padding: 0 5px; margin-right: 4px; }
.turn .message { margin: 3px 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.violation { color: #b91c1c; font-size: 12px; margin: 2px 0 0; }
.outcome { font-weight: 600; margin: 6px 0 2px; } .outcome.deal { color: #15803d; } .outcome.no-deal { color: #4b5563; } .outcome.failed { color: #b91c1c; }
`;
