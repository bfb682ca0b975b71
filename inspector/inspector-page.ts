import { escapeHtml, pageHeaders } from './page-security';
import { INSPECTOR_SCRIPT } from './inspector-page-script';
import { INSPECTOR_STYLE } from './inspector-page-style';

// The live list and the detail view. The page learns where its API lives from data-base
// (the path it was served on), so it works wherever the sub-app is mounted.

export const inspectorPageHeaders = pageHeaders(INSPECTOR_STYLE, INSPECTOR_SCRIPT);

export function inspectorPage(title: string, basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${INSPECTOR_STYLE}</style>
</head>
<body data-base="${escapeHtml(basePath)}">
<header><h1>${escapeHtml(title)}</h1><span id="status">connecting…</span><span id="count" class="muted"></span></header>
<section id="filters" aria-label="Filters">
<label>Service <select id="filter-service"><option value="">all</option></select></label>
<label>Verdict <select id="filter-verdict"><option value="">all</option><option value="ok">ok</option><option value="broken">broken</option><option value="error">error</option></select></label>
<label>Rule <select id="filter-rule"><option value="">all</option></select></label>
</section>
<div id="list">
<table>
<thead><tr><th>time</th><th>service</th><th>member</th><th>HTTP</th><th>duration</th><th>faults applied</th><th>verdict</th></tr></thead>
<tbody id="exchanges"></tbody>
</table>
<p id="empty" class="muted">&nbsp;No exchanges yet: new ones appear here as they happen.</p>
</div>
<section id="detail" hidden>
<h2 id="detail-title"></h2>
<p id="detail-meta" class="muted"></p>
<ul id="violations"></ul>
<div class="sides">
<div><h3>Forwarded request</h3><pre class="json" id="request-json"></pre></div>
<div><h3>Reply</h3><pre class="json" id="reply-json"></pre></div>
</div>
<h3 id="notes-title" hidden>Notes</h3>
<ul id="notes"></ul>
</section>
<script>${INSPECTOR_SCRIPT}</script>
</body>
</html>
`;
}
