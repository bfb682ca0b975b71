import { describe, expect, it } from 'vitest';
import { pactPathPointer, renderVerificationHtml } from './verification-html';
import { PAYLOAD, verificationExchanges, verificationReport } from './testing/sample-reports';

// The verify page: both verdicts per interaction; each failed one with its findings and the
// request and reply side by side, the broken path marked in the reply; the seller's text inert.

describe('renderVerificationHtml', () => {
  const page = renderVerificationHtml(verificationReport, verificationExchanges);

  it('lists every interaction with both verdicts', () => {
    const rows = [...page.matchAll(/<tr data-testid="interaction" data-verdict="([\w-]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual(['pass', 'fail', 'not-run']);
    expect(rows[0][2]).toMatch(
      /<td><span class="badge pass">passed<\/span><\/td><td><span class="badge pass">passed<\/span><\/td><td class="num">HTTP 200, 12 ms/,
    );
    expect(rows[1][2]).toMatch(
      /<span class="badge pass">passed<\/span><\/td><td><span class="badge fail">BROKEN: alternate.original-part<\/span>/,
    );
    expect(rows[1][2]).toContain('<a href="#interaction-2">');
    expect(rows[2][2]).toContain('not run');
    expect(page).toContain('FAILED: 1 of 3 interactions failed, 1 passed; broken rules: alternate.original-part');
  });

  it("shows a failed interaction's request and reply side by side with the broken path marked", () => {
    const failed = /<details open id="interaction-2" data-testid="failed-interaction">[\s\S]*?<\/details>/.exec(
      page,
    )![0];
    expect(failed).toContain('<div class="side-by-side" data-testid="exchange">');
    const [request, reply] = failed.split('<h3>Reply');
    expect(request).toContain('&quot;service&quot;: &quot;item_inquiry&quot;');
    expect(request).not.toContain('<mark');
    expect(reply).toContain('HTTP 200, broken paths marked');
    expect(reply).toMatch(
      /<mark class="broken" data-path="\/items\/1\/original_part" title="alternate.original-part: [^"]*">&quot;original_part&quot;: /,
    );
    expect(failed).toContain('expected <code>&#39;5060882&#39;</code> found <code>&#39;&lt;script&gt;');
    // Only the failed interaction gets a section.
    expect(page.match(/data-testid="failed-interaction"/g)).toHaveLength(1);
  });

  it('says so when no request reached the seller through the kit', () => {
    const without = renderVerificationHtml(verificationReport);
    expect(without).toContain('No request of this interaction reached your system through the kit.');
  });

  it("leaves the seller's text inert: ids, values and messages escaped everywhere", () => {
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain(
      '&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;',
    );
  });

  it("marks Pact's body mismatches in the reply too, at the pointer of Pact's path", () => {
    expect(pactPathPointer('$.items[1].original_mfr')).toBe('/items/1/original_mfr');
    expect(pactPathPointer('$.items.0.id')).toBe('/items/0/id');
    expect(pactPathPointer("$['a.b'][2]")).toBe('/a.b/2');
    expect(pactPathPointer('$')).toBe('');
    expect([pactPathPointer('content-type'), pactPathPointer(undefined), pactPathPointer('$.a[')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    const report = structuredClone(verificationReport);
    report.interactions[1].pact = 'failed';
    report.interactions[1].pactMismatches = [
      { path: '$.items[0].part_number', message: "Expected '5060882' but received 'X'" },
    ];
    const page = renderVerificationHtml(report, verificationExchanges);
    expect(page).toMatch(
      /<mark class="broken" data-path="\/items\/0\/part_number" title="pact: Expected &#39;5060882&#39; but received &#39;X&#39;">/,
    );
    expect(page).toContain(
      '<strong>Pact mismatch</strong> <span class="where">at <code>$.items[0].part_number</code></span>',
    );
  });
});
