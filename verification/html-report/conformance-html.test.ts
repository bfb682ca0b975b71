import { describe, expect, it } from 'vitest';
import { renderConformanceHtml, scoreColour } from './conformance-html';
import { conformanceReport, PAYLOAD } from './testing/sample-reports';

// The explore page: the operation × rule matrix coloured by score, each shrunk failure with its
// request and curl command, the seller's text inert.

const cells = (page: string) =>
  Object.fromEntries(
    [
      ...page.matchAll(
        /<td class="num" style="background: ([^"]+)" data-testid="score" data-operation="([\w-]+)" data-rule="([\w.-]+)" data-band="([\w-]+)"/g,
      ),
    ].map((m) => [`${m[2]} ${m[3]}`, { background: m[1], band: m[4] }]),
  );

describe('renderConformanceHtml', () => {
  const page = renderConformanceHtml(conformanceReport);

  it('colours each operation × rule cell by its score against --min-score', () => {
    const byCell = cells(page);
    expect(byCell['item-inquiry reply.answer'].band).toBe('kept');
    // 98% is above --min-score (95%), but a reply rule's gate is 100%: broken.
    expect(byCell['item-inquiry alternate.original-part'].band).toBe('broken');
    expect(byCell['item-inquiry item.unknown-id'].band).toBe('broken'); // 80%
    expect(byCell['place-order order.id-echo'].band).toBe('broken'); // 0%
    expect(byCell['item-inquiry location.type-code'].band).toBe('not-exercised');
    expect(byCell['item-inquiry reply.answer'].background).toBe(scoreColour(1, 0.95).background);
    // Worse is redder: 0% sits at hue 0, 80% towards orange.
    expect(byCell['place-order order.id-echo'].background).toMatch(/^hsl\(0,/);
    expect(byCell['item-inquiry item.unknown-id'].background).toMatch(/^hsl\(32,/); // 80% of a 100% gate
    // A rule an operation does not have is a blank cell, not a score.
    expect(page).toMatch(
      /<th title="what order.id-echo guards"><code>order.id-echo<\/code><\/th><td class="n-a" data-band="not-applicable"><\/td>/,
    );
  });

  it('bands scores: kept, passing at or above the gate, broken below it, not exercised', () => {
    expect(scoreColour(null, 1).band).toBe('not-exercised');
    expect(scoreColour(1, 1).band).toBe('kept');
    expect(scoreColour(0.99, 1).band).toBe('broken');
    expect(scoreColour(0.99, 0.99).band).toBe('passing');
    expect(scoreColour(0, 0).band).toBe('passing');
  });

  it('links a broken cell to its failure: shrunk request, finding and curl command', () => {
    expect(page).toContain('<a href="#failure-item-inquiry-item-unknown-id">80.0%</a>');
    const failure = /<details open id="failure-item-inquiry-item-unknown-id"[\s\S]*?<\/details>/.exec(page)![0];
    expect(failure).toContain('broken in 30 exchanges');
    expect(failure).toContain('shrunk to 1 item in 12 tries');
    expect(failure).toContain('at <code>/items/0/id</code> of the reply');
    expect(failure).toMatch(
      /<h3>Shrunk request<\/h3><pre class="json">[\s\S]*&quot;part_number&quot;: &quot;51515&quot;/,
    );
    expect(failure).toMatch(
      /<details data-testid="original-request"><summary>The first failing request, as generated \(run 7\)<\/summary><pre class="json">/,
    );
    expect(failure).toMatch(/<pre data-testid="curl">curl -sS -X POST &#39;http:\/\/127.0.0.1:9999\/seller&#39;/);
    expect(page).toContain(
      'FAILED: 80 of 200 exchanges broke reply rules — item-inquiry item.unknown-id 80.0%, place-order order.id-echo 0.0% (a broken reply rule fails the run whatever --min-score)',
    );
  });

  it("leaves the seller's text inert", () => {
    expect(page).not.toContain(PAYLOAD);
    expect(page).not.toMatch(/<script|<img/i);
  });
});
