import { pageHeaders } from '../../inspector/page-security';

// The interactive API reference at GET /reference: the OpenAPI document rendered by one small
// inline script, with a "try it" form per operation. Self-contained on purpose: the packaged
// reference UIs (@scalar/hono-api-reference, @hono/swagger-ui) load their JavaScript from a
// CDN when the page is viewed, which fails offline and on locked-down networks.

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5rem auto; max-width: 70rem; padding: 0 1rem; color: #222; }
h2 { margin-top: 2rem; border-bottom: 2px solid #ccc; } details { border: 1px solid #ddd; border-radius: 4px; margin: .4rem 0; padding: .3rem .6rem; }
summary { cursor: pointer; } .method { display: inline-block; width: 4.5rem; font-weight: bold; text-transform: uppercase; }
.get { color: #05a; } .post { color: #070; } .patch { color: #a60; } .delete { color: #a00; }
pre { background: #f6f6f6; padding: .5rem; overflow: auto; max-height: 24rem; } textarea { width: 100%; font-family: monospace; }
.muted { color: #666; }
`;

const SCRIPT = `
'use strict';
const doc = JSON.parse(document.getElementById('openapi').textContent);
const el = (tag, props, ...children) => { const e = Object.assign(document.createElement(tag), props || {}); e.append(...children); return e; };
const resolve = (s) => (s && s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);

// A body to start from: required fields only, each with a plausible value of its type.
function example(schema, depth) {
  schema = resolve(schema) || {};
  if (depth > 6) return null;
  if (schema.anyOf) return example(schema.anyOf[0], depth + 1);
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'object': {
      const out = {};
      for (const name of schema.required || []) out[name] = example(schema.properties[name], depth + 1);
      return out;
    }
    case 'array': return [example(schema.items, depth + 1)];
    case 'integer': case 'number': return schema.minimum !== undefined ? schema.minimum : 1;
    case 'boolean': return false;
    default: return schema.format === 'date' ? '2026-01-31' : 'string';
  }
}

const tokenInput = document.getElementById('token');
tokenInput.value = sessionStorage.getItem('referenceToken') || '';
tokenInput.addEventListener('change', () => sessionStorage.setItem('referenceToken', tokenInput.value.trim()));

function operationView(path, method, op) {
  const params = (op.parameters || []).map((p) => ({ p, input: el('input', { placeholder: p.name + (p.required ? ' (required)' : ''), size: 40 }) }));
  const body = op.requestBody ? el('textarea', { rows: 8, value: JSON.stringify(op.requestBody.content['application/json'].example ?? example(op.requestBody.content['application/json'].schema, 0), null, 2) }) : null;
  const output = el('pre', { className: 'muted', textContent: 'No request sent yet.' });
  const send = el('button', { type: 'button', textContent: 'Send' });
  send.addEventListener('click', async () => {
    let url = path;
    const query = new URLSearchParams();
    for (const { p, input } of params) {
      if (input.value === '') continue;
      if (p.in === 'path') url = url.replace('{' + p.name + '}', encodeURIComponent(input.value));
      else query.set(p.name, input.value);
    }
    if ([...query].length) url += '?' + query;
    const headers = {};
    if (tokenInput.value.trim()) headers.authorization = 'Bearer ' + tokenInput.value.trim();
    if (body) headers['content-type'] = 'application/json';
    output.textContent = 'Sending…';
    try {
      const response = await fetch(url, { method: method.toUpperCase(), headers, body: body ? body.value : undefined });
      const text = await response.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
      output.textContent = response.status + ' ' + response.statusText + '\\n\\n' + shown;
    } catch (error) {
      output.textContent = 'Failed: ' + error.message;
    }
  });
  const schemaOf = (s) => el('pre', { textContent: JSON.stringify(resolve(s), null, 2) });
  // Node's own answers are shared responses (#/components/responses/…).
  const described = (r) => (r.$ref ? doc.components.responses[r.$ref.split('/').pop()] : r).description;
  const responses = Object.entries(op.responses).map(([status, r]) => el('li', {}, status + ' — ' + described(r)));
  return el('details', { id: op.operationId },
    el('summary', {}, el('span', { className: 'method ' + method, textContent: method }), el('code', { textContent: path }), ' — ' + op.summary),
    op.description ? el('p', { textContent: op.description }) : '',
    el('p', { className: 'muted', textContent: 'Authentication: ' + (op.security && op.security.length > 0 ? op.security.map((s) => Object.keys(s)[0]).join(' or ') : 'none') }),
    op.requestBody ? el('details', {}, el('summary', { textContent: 'Request body schema' }), schemaOf(op.requestBody.content['application/json'].schema)) : '',
    el('details', {}, el('summary', { textContent: 'Reply schema (200)' }), schemaOf(op.responses['200'].content['application/json'].schema)),
    el('ul', {}, ...responses),
    el('h4', { textContent: 'Try it' }),
    ...params.map(({ p, input }) => el('p', {}, el('label', {}, p.name + ' (' + p.in + ') ', input))),
    body || '',
    el('p', {}, send),
    output,
  );
}

document.getElementById('title').textContent = doc.info.title + ' ' + doc.info.version;
document.getElementById('description').textContent = doc.info.description;
const main = document.getElementById('operations');
for (const tag of doc.tags) {
  const views = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) if (op.tags.includes(tag.name)) views.push(operationView(path, method, op));
  }
  if (views.length) main.append(el('h2', { textContent: tag.name }), ...views);
}
`;

export interface ReferencePage {
  html: string;
  headers: Record<string, string>;
}

/** The page for one document; `<` is escaped so no string in the document can close the script. */
export function referencePage(document: object): ReferencePage {
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Federated Gateway — API reference</title>
<style>${STYLE}</style>
</head>
<body>
<h1 id="title">API reference</h1>
<p id="description"></p>
<p>The OpenAPI 3.1 document: <a href="/openapi.json">/openapi.json</a>.</p>
<p><label>Bearer token for "try it" (a buyer JWT from <code>npm run token</code>, or a catalog session token)
<input id="token" size="60" autocomplete="off"></label></p>
<main id="operations"></main>
<script type="application/json" id="openapi">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
  return {
    html,
    // The one set of page headers (nosniff, no framing, no referrer); public, so cached with revalidation.
    headers: { ...pageHeaders(STYLE, SCRIPT), 'cache-control': 'no-cache' },
  };
}
