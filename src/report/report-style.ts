/** The report's stylesheet, inlined so the file stands alone. */
export const REPORT_STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2937; margin: 24px auto; max-width: 1100px; padding: 0 16px; }
h1 { font-size: 22px; margin: 0; } h2 { font-size: 18px; margin-top: 32px; } h3 { font-size: 15px; }
.note, .caption { color: #6b7280; font-size: 12px; }
.cards { display: flex; gap: 16px; flex-wrap: wrap; }
.card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 16px; flex: 1 1 320px; }
.card h2 { margin: 4px 0; font-size: 16px; } .big { font-size: 20px; font-weight: 600; }
.card dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; font-size: 12px; }
.card code { word-break: break-all; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #e5e7eb; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
table.labels td:nth-child(2) { text-align: left; }
tr.significant td:nth-child(4) { font-weight: 600; }
thead th { background: #f9fafb; }
figure.chart { margin: 16px 0 24px; } figcaption { font-weight: 600; margin-bottom: 4px; }
.legend { font-size: 12px; margin-bottom: 4px; } .legend-item { margin-right: 16px; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: middle; }
.failures { border-left: 3px solid #dc2626; padding: 4px 12px; margin: 8px 0; } .failure-headline { font-weight: 600; color: #991b1b; }
table.errors td.error-message { text-align: left; font-family: ui-monospace, monospace; font-size: 12px; word-break: break-word; }
table.outcomes tr.unfinished td { color: #991b1b; } .big.failed { color: #991b1b; }
svg text { font-size: 11px; fill: #374151; } svg .grid { stroke: #e5e7eb; } svg .axis { stroke: #9ca3af; }
`;
