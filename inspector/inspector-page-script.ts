// The inspector page's script, inlined and allowed by its hash (page-security.ts). Plain
// browser JavaScript, no build step. Server data only ever reaches the page as text
// (textContent), never as HTML. Written without backticks so it can live in this string.

export const INSPECTOR_SCRIPT = `
'use strict';
const base = document.body.dataset.base;
const $ = (id) => document.getElementById(id);
const summaries = new Map();
let limit = 1000;
let selected = null;

function node(tag, text, className) {
  const el = document.createElement(tag);
  if (text !== undefined) el.textContent = text;
  if (className) el.className = className;
  return el;
}

function addOption(select, value) {
  if ([...select.options].some((o) => o.value === value)) return;
  select.appendChild(node('option', value)).value = value;
}

function matches(s) {
  const service = $('filter-service').value, verdict = $('filter-verdict').value, rule = $('filter-rule').value;
  return (!service || s.service === service) && (!verdict || s.verdict === verdict) && (!rule || s.rules.includes(rule));
}

function showCount() {
  const rows = [...$('exchanges').children];
  const shown = rows.filter((r) => !r.hidden).length;
  $('count').textContent = shown === rows.length ? rows.length + ' exchanges' : shown + ' of ' + rows.length + ' exchanges';
  $('empty').hidden = rows.length > 0;
}

function applyFilters() {
  for (const row of $('exchanges').children) row.hidden = !matches(summaries.get(Number(row.dataset.id)));
  showCount();
}

function rowOf(s) {
  const row = node('tr');
  row.dataset.testid = 'exchange-row';
  row.dataset.id = String(s.id);
  row.dataset.verdict = s.verdict;
  row.tabIndex = 0;
  row.appendChild(node('td', s.at.slice(11, 23)));
  row.appendChild(node('td', s.service === null ? '(none)' : s.service));
  row.appendChild(node('td', s.member === null ? '' : s.member));
  row.appendChild(node('td', s.http_status === null ? 'no answer' : String(s.http_status)));
  row.appendChild(node('td', s.duration_ms.toFixed(1) + ' ms'));
  row.appendChild(node('td', s.faults.join(', ')));
  const verdict = row.appendChild(node('td', '', 'verdict verdict-' + s.verdict));
  verdict.textContent = s.verdict + (s.rules.length > 0 ? ' (' + s.rules.join(', ') + ')' : '');
  if (s.problem) verdict.title = s.problem;
  row.addEventListener('click', () => select(s.id));
  row.addEventListener('keydown', (e) => { if (e.key === 'Enter') select(s.id); });
  return row;
}

function add(s) {
  summaries.set(s.id, s);
  if (s.service !== null) addOption($('filter-service'), s.service);
  for (const rule of s.rules) addOption($('filter-rule'), rule);
  const row = rowOf(s);
  row.hidden = !matches(s);
  if (s.id === selected) row.classList.add('selected');
  $('exchanges').prepend(row);
  // The page keeps what the server keeps: the feed's bounded history.
  while ($('exchanges').children.length > limit) {
    const last = $('exchanges').lastElementChild;
    summaries.delete(Number(last.dataset.id));
    last.remove();
  }
}

const escapeToken = (t) => String(t).replace(/~/g, '~0').replace(/\\//g, '~1');
const parentOf = (path) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const valueText = (value) => (value === undefined ? 'nothing' : JSON.stringify(value));

// Pretty JSON, one element per line, each value's line tagged with its JSON pointer, so a
// broken rule can be marked where it happened.
function jsonLines(value) {
  const lines = [];
  function walk(v, path, key, depth, last) {
    const pad = '  '.repeat(depth) + (key === null ? '' : JSON.stringify(key) + ': ');
    const comma = last ? '' : ',';
    if (v !== null && typeof v === 'object') {
      const entries = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      if (entries.length === 0) { lines.push({ path, text: pad + open + close + comma }); return; }
      lines.push({ path, text: pad + open });
      entries.forEach(([k, x], i) => walk(x, path + '/' + escapeToken(k), Array.isArray(v) ? null : k, depth + 1, i === entries.length - 1));
      lines.push({ path: null, text: '  '.repeat(depth) + close + comma });
    } else {
      lines.push({ path, text: pad + JSON.stringify(v) + comma });
    }
  }
  walk(value, '', null, 0, true);
  return lines;
}

function renderJson(target, value, marks) {
  target.replaceChildren();
  if (typeof value === 'string') { target.textContent = value; return; }
  if (value === null || value === undefined) { target.textContent = '(no body)'; return; }
  const lines = jsonLines(value);
  const at = new Map(lines.filter((l) => l.path !== null).map((l, i) => [l.path, l]));
  const notes = new Map();
  for (const mark of marks) {
    // A missing field has no line of its own: mark its nearest present parent.
    let path = mark.path;
    while (!at.has(path) && path !== '') path = parentOf(path);
    const line = at.get(path) || lines[0];
    if (!notes.has(line)) notes.set(line, []);
    notes.get(line).push(mark);
  }
  let first = null;
  for (const line of lines) {
    const el = target.appendChild(node('div', line.text, 'json-line'));
    if (line.path !== null) el.dataset.path = line.path;
    for (const mark of notes.get(line) || []) {
      el.classList.add('broken');
      const text = '\\u25B2 ' + mark.rule + ' at ' + mark.path + ': ' + mark.message +
        (mark.expected !== undefined || mark.found !== undefined ? '\\n  expected ' + valueText(mark.expected) + ', found ' + valueText(mark.found) : '');
      const note = target.appendChild(node('div', text, 'annotation'));
      note.dataset.testid = 'annotation';
      note.dataset.rule = mark.rule;
      note.dataset.path = mark.path;
      first = first || el;
    }
  }
  if (first) first.scrollIntoView({ block: 'center' });
}

function nearMiss(mark) {
  const li = node('li');
  li.dataset.testid = 'violation';
  li.dataset.rule = mark.rule;
  li.appendChild(node('strong', mark.rule));
  li.appendChild(document.createTextNode(' at '));
  li.appendChild(node('code', mark.path || '/'));
  li.appendChild(node('div', mark.message));
  if (mark.expected !== undefined || mark.found !== undefined) {
    const grid = li.appendChild(node('div', undefined, 'near-miss'));
    grid.appendChild(node('span', 'expected'));
    grid.appendChild(node('span', valueText(mark.expected), 'expected')).dataset.testid = 'expected';
    grid.appendChild(node('span', 'found'));
    grid.appendChild(node('span', valueText(mark.found), 'found')).dataset.testid = 'found';
  }
  return li;
}

async function select(id) {
  selected = id;
  for (const row of $('exchanges').children) row.classList.toggle('selected', Number(row.dataset.id) === id);
  const response = await fetch(base + '/exchanges/' + id);
  $('detail').hidden = false;
  if (!response.ok) {
    $('detail-title').textContent = 'Exchange #' + id;
    $('detail-meta').textContent = response.status === 404 ? 'no longer in the history' : 'HTTP ' + response.status;
    for (const pane of ['violations', 'request-json', 'reply-json', 'notes']) $(pane).replaceChildren();
    return;
  }
  const d = await response.json();
  $('detail-title').textContent = '#' + d.id + ' ' + (d.service || '(no service)') + (d.member ? ' for ' + d.member : '') + ': ' + d.verdict;
  $('detail-meta').textContent = d.at + ' \\u00B7 ' + (d.http_status === null ? 'no answer' : 'HTTP ' + d.http_status) + ' \\u00B7 ' + d.duration_ms.toFixed(1) + ' ms' +
    (d.faults.length > 0 ? ' \\u00B7 faults applied: ' + d.faults.join(', ') : '') + (d.problem && d.verdict === 'error' ? ' \\u00B7 ' + d.problem : '');
  const marks = d.errors.map((e) => ({ rule: 'schema', path: e.path, message: e.message })).concat(d.violations);
  $('violations').replaceChildren(...marks.map(nearMiss));
  renderJson($('request-json'), d.request, []);
  renderJson($('reply-json'), d.reply, marks);
  $('notes-title').hidden = d.notes.length === 0;
  $('notes').replaceChildren(...d.notes.map((n) => node('li', (n.rule || n.keyword) + ' at ' + (n.path || '/') + ': ' + n.message, 'muted')));
}

for (const id of ['filter-service', 'filter-verdict', 'filter-rule']) $(id).addEventListener('change', applyFilters);

const source = new EventSource(base + '/events');
source.addEventListener('open', () => { $('status').textContent = 'live'; $('status').className = 'live'; });
source.addEventListener('error', () => { $('status').textContent = 'reconnecting\\u2026'; $('status').className = ''; });
source.addEventListener('history', (e) => {
  const history = JSON.parse(e.data);
  limit = history.limit;
  summaries.clear();
  $('exchanges').replaceChildren();
  for (const s of history.exchanges) add(s);
  showCount();
});
source.addEventListener('exchange', (e) => { add(JSON.parse(e.data)); showCount(); });
`;
