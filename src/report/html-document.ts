import { escapeHtml } from './html.js';
import { REPORT_STYLE } from './report-style.js';

/**
 * A whole report page: inline CSS, a content policy that forbids every fetch and script, and the body
 * given. Every report kind goes through here so none can forget the policy.
 */
export function htmlDocument(title: string, subtitle: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p class="note">${subtitle}</p></header>
${body}
</body>
</html>
`;
}
