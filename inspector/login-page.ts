import { escapeHtml, pageHeaders } from './page-security';

// Shown instead of the inspector when a credential is required and the browser has no
// session: takes the credential from the URL fragment (#token=..., which never reaches the
// server or its logs) or from the form, posts it to <base>/session, then loads the inspector.

const STYLE = `
body { font: 15px/1.4 system-ui, sans-serif; margin: 2rem; max-width: 34rem; color: #1f2328; }
h1 { font-size: 1.2rem; } input { width: 100%; padding: .35rem; margin: .4rem 0; } .error { color: #b42318; }
`;

const SCRIPT = `
'use strict';
const base = document.body.dataset.base;
async function start(token) {
  const response = await fetch(base + '/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (response.ok) { location.replace(base); return; }
  const data = await response.json().catch(() => ({}));
  document.getElementById('error').textContent = data.message || ('HTTP ' + response.status);
}
const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('token')) {
  history.replaceState(null, '', location.pathname);
  start(fragment.get('token'));
}
document.getElementById('login').addEventListener('submit', (e) => {
  e.preventDefault();
  start(document.getElementById('token').value);
});
`;

export const loginPageHeaders = pageHeaders(STYLE, SCRIPT);

export function loginPage(title: string, basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}: sign in</title><style>${STYLE}</style></head>
<body data-base="${escapeHtml(basePath)}">
<h1>${escapeHtml(title)}</h1>
<p>The inspector shows forwarded requests and seller replies; it needs the internal API credential.</p>
<form id="login"><label for="token">Credential</label><input id="token" type="password" autocomplete="current-password" required><button type="submit">Open the inspector</button></form>
<p id="error" class="error" role="alert"></p>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
