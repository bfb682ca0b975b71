import { exchangeOutcomeText } from '../reports/exchange-outcome';
import {
  interactionPassed,
  SCHEMA_RULE,
  type InteractionReport,
  type VerificationReport,
} from '../reports/verification-report';
import { changedSinceText } from '../verify/interaction-notes';
import { sideLabel } from '../compat/compat-report';
import { valueText, summaryLine } from '../reports/report-as-text';
import { markup, type Markup } from './html-text';
import { jsonView, type MarkedPath } from './json-view';
import { badge, htmlPage, runIdentityBlock, verdictBlock } from './page-shell';
import { jsonTextView } from './json-text-view';

// `verify --html`: every interaction with both verdicts (Pact's and the reply rules'), then
// for each one that failed, its findings and the request and reply side by side with every
// broken path marked in the reply.

/** What the kit's proxy saw of an interaction's last exchange (rules-proxy's Exchange fits). */
export interface ExchangeBodies {
  request: unknown;
  /** 0 when the seller could not be reached. */
  status: number;
  reply?: unknown;
  /** The reply's text as it arrived: shown as sent (14.0 stays 14.0), when there. */
  replyText?: string;
}

const httpStatus = (status: number | null | undefined) =>
  status === undefined || status === null || status === 0 ? '—' : String(status);

const pactBadge = (i: InteractionReport): Markup =>
  i.pact === 'passed'
    ? badge('pass', 'passed')
    : i.pact === 'failed'
      ? badge('fail', 'FAILED')
      : badge('dim', 'not run');

function rulesBadge(i: InteractionReport): Markup {
  if (i.rules === 'passed') return badge('pass', 'passed');
  if (i.rules !== 'failed') return badge('dim', i.rules);
  const rules = [...new Set([...(i.schemaErrors.length > 0 ? [SCHEMA_RULE] : []), ...i.violations.map((v) => v.rule)])];
  return badge('fail', `BROKEN: ${rules.join(', ')}`);
}

const anchorOf = (index: number) => `interaction-${index + 1}`;

/**
 * Pact's body path ($.items[1].original_mfr, $.items.1.x, $['a.b'])
 * as a JSON pointer; undefined for anything else (headers, status).
 */
export function pactPathPointer(path: string | undefined): string | undefined {
  if (path === undefined || !path.startsWith('$')) return undefined;
  let pointer = '';
  const segment = /^(?:\.([^.[\]]+)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\])/;
  let rest = path.slice(1);
  while (rest !== '') {
    const m = segment.exec(rest);
    if (m === null) return undefined;
    const name = m[1] ?? m[2] ?? m[3].replace(/\\(.)/g, '$1');
    pointer += `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    rest = rest.slice(m[0].length);
  }
  return pointer;
}

function findings(i: InteractionReport): Markup {
  const pact = i.pactMismatches.map(
    (m) =>
      markup`<div class="finding" data-rule="pact"><strong>Pact mismatch</strong>${
        m.path !== undefined ? markup` <span class="where">at <code>${m.path}</code></span>` : ''
      }<br>${m.message}</div>`,
  );
  const schema = i.schemaErrors.map(
    (e) =>
      markup`<div class="finding" data-rule="${SCHEMA_RULE}"><strong>${SCHEMA_RULE}</strong> <span class="where">at <code>${e.path || '/'}</code></span><br>${e.message}</div>`,
  );
  const rules = i.violations.map((v) => {
    const values =
      v.expected !== undefined || v.found !== undefined
        ? markup`<br>expected <code>${valueText(v.expected)}</code> found <code>${valueText(v.found)}</code>`
        : '';
    return markup`<div class="finding" data-rule="${v.rule}"><strong>${v.rule}</strong> <span class="where">item id <code>${v.id ?? '—'}</code> at <code>${v.path}</code></span><br>${v.message}${values}</div>`;
  });
  const problems = i.problems.map(
    (p) => markup`<div class="finding" data-rule="problem"><strong>problem</strong><br>${p}</div>`,
  );
  return markup`${pact}${schema}${rules}${problems}`;
}

function sideBySide(i: InteractionReport, exchange: ExchangeBodies | undefined): Markup {
  if (exchange === undefined)
    return markup`<p class="note">No request of this interaction reached your system through the kit.</p>`;
  const marks: MarkedPath[] = [
    ...i.pactMismatches.flatMap((m) => {
      const pointer = pactPathPointer(m.path);
      return pointer === undefined ? [] : [{ path: pointer, label: `pact: ${m.message}` }];
    }),
    ...i.schemaErrors.map((e) => ({ path: e.path, label: `${SCHEMA_RULE}: ${e.message}` })),
    ...i.violations.map((v) => ({ path: v.path, label: `${v.rule}: ${v.message}` })),
  ];
  const reply =
    exchange.reply === undefined
      ? markup`<p class="note">No JSON reply (HTTP ${httpStatus(exchange.status)}).</p>`
      : exchange.replyText !== undefined
        ? jsonTextView(exchange.replyText, marks)
        : jsonView(exchange.reply, marks);
  const heading = `Reply (HTTP ${httpStatus(exchange.status)}${marks.length > 0 ? ', broken paths marked' : ''})`;
  return markup`<div class="side-by-side" data-testid="exchange"><div><h3>Request (as sent to your system)</h3>${jsonView(exchange.request)}</div><div><h3>${heading}</h3>${reply}</div></div>`;
}

/** PENDING beside the verdict: reported, never failing the run. */
const pendingBadge = (i: InteractionReport): Markup =>
  i.pending === true ? markup` ${badge('dim', 'PENDING')}` : markup``;

/** The interaction's notes: why it is pending, what changed in it since --since. */
function marksNote(i: InteractionReport): Markup {
  const pending =
    i.pending === true
      ? markup`<br><span class="note" data-testid="pending">pending: ${i.pendingReason ?? ''} — never fails the run</span>`
      : '';
  const changed =
    i.changedSince !== undefined
      ? markup`<br><span class="note" data-testid="changed-since">${changedSinceText(i.changedSince)}</span>`
      : '';
  return markup`${pending}${changed}`;
}

function interactionRow(i: InteractionReport, index: number): Markup {
  const ok = interactionPassed(i);
  const verdict = i.pact === 'not-run' ? 'not-run' : ok ? 'pass' : i.pending === true ? 'pending-fail' : 'fail';
  const label = i.pact === 'not-run' ? badge('dim', 'NOT RUN') : ok ? badge('pass', 'PASS') : badge('fail', 'FAIL');
  const name =
    !ok && i.pact !== 'not-run' ? markup`<a href="#${anchorOf(index)}">${i.description}</a>` : markup`${i.description}`;
  const given = markup`${i.states.length > 0 ? markup`<br><span class="note">given ${i.states.join(', ')}</span>` : ''}${marksNote(i)}`;
  // A timeout reads as one (no answer within the limit), never as a status the seller did not send.
  const exchange = i.exchange === undefined ? '—' : exchangeOutcomeText(i.exchange);
  return markup`<tr data-testid="interaction" data-verdict="${verdict}"><td>${label}${pendingBadge(i)}</td><td>${name}${given}</td><td>${pactBadge(i)}</td><td>${rulesBadge(
    i,
  )}</td><td class="num">${exchange}</td></tr>`;
}

export function renderVerificationHtml(
  report: VerificationReport,
  exchanges: readonly (ExchangeBodies | undefined)[] = [],
): string {
  const failed = report.interactions.flatMap((i, index) =>
    interactionPassed(i) || i.pact === 'not-run'
      ? []
      : [
          markup`<details open id="${anchorOf(index)}" data-testid="failed-interaction"><summary>${i.description}${pendingBadge(i)} — pact: ${pactBadge(i)} · reply rules: ${rulesBadge(
            i,
          )}</summary>${marksNote(i)}${findings(i)}${sideBySide(i, exchanges[index])}${
            i.curl !== undefined
              ? markup`<h3>Reproduce (once its states are set up; add your --header values)</h3><pre data-testid="curl">${i.curl}</pre>`
              : ''
          }</details>`,
        ],
  );
  const broken = report.rules.map(
    (r) =>
      markup`<tr data-testid="broken-rule"><td><code>${r.rule}</code></td><td>${r.description}</td><td class="num">${r.breaches.length}</td></tr>`,
  );
  const body = markup`<h1>Seller verification</h1>
<p class="meta">${report.sellerUrl}</p>
${runIdentityBlock(report.run)}
${verdictBlock(report.ok, summaryLine(report))}
${report.fatal !== undefined ? markup`<p class="finding">Pact could not run: ${report.fatal}</p>` : ''}
${report.since !== undefined ? markup`<p class="meta" data-testid="since">compared with ${sideLabel(report.since.base)}: new and changed interactions are marked</p>` : ''}
<h2>Interactions</h2>
<table><thead><tr><th></th><th>interaction</th><th>pact</th><th>reply rules</th><th class="num">exchange</th></tr></thead><tbody>${report.interactions.map(interactionRow)}</tbody></table>
${broken.length > 0 ? markup`<h2>Broken rules</h2><table><thead><tr><th>rule</th><th>what it guards</th><th class="num">breaches</th></tr></thead><tbody>${broken}</tbody></table>` : ''}
${failed.length > 0 ? markup`<h2>Failed interactions</h2>${failed}` : ''}`;
  return htmlPage({ title: `Seller verification of ${report.sellerUrl}`, kind: 'verification', body });
}
