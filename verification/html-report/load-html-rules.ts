import { badge } from './page-shell';
import { markup, type Markup } from './html-text';
import { modelWords } from './load-html-words';
import type { LoadReportView, RuleBrokenView } from './load-view';

// Every reply rule or schema the seller broke during the run: each one fails the run, however
// high the knee. A rule that broke only under concurrency also gets its replay, since the lone
// curl of its first failing request would pass.

function ruleSection(view: LoadReportView, r: RuleBrokenView): Markup {
  const words = modelWords(view.model);
  const where =
    r.path !== undefined ? markup`<br><span class="where">at <code>${r.path}</code> of the reply</span>` : '';
  const finding = r.message !== undefined ? markup`<div class="finding">${r.message}${where}</div>` : '';
  const only = r.only_under_concurrency ? markup` ${badge('fail', 'only under concurrency')}` : '';
  const alone = r.only_under_concurrency
    ? markup`<h3>The first failing request, alone (sent alone its reply was correct: a lone curl passes)</h3>`
    : markup`<h3>The first failing request</h3>`;
  const replay =
    r.replay !== undefined
      ? markup`<h3>Replay it with the requests that were in flight beside it</h3><pre data-testid="replay">${r.replay}</pre>`
      : '';
  return markup`<details open data-testid="rule-broken" data-rule="${r.rule}" data-only-under-concurrency="${r.only_under_concurrency}"><summary><code>${
    r.rule
  }</code> — first broken at ${words.level(r.first_level)}, ${r.exchanges} exchange${r.exchanges === 1 ? '' : 's'}${only}</summary>${finding}${alone}<pre data-testid="curl">${
    r.curl
  }</pre>${replay}</details>`;
}

export function rulesBroken(view: LoadReportView): Markup | string {
  if (view.rules_broken.length === 0) return '';
  return markup`<h2 data-testid="rules-broken">Reply rules broken — the run fails whatever the knee</h2>${view.rules_broken.map((r) => ruleSection(view, r))}`;
}
