import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../shared/package-root';

// The alert rules shipped beside the metrics, checked by Prometheus' own promtool (Debian's
// `prometheus` package): they parse, and their unit tests (alert-rules.test.yml) pass — each
// alert fires on series that cross its threshold and stays silent on ones that do not. Skipped
// with its reason where promtool is missing, except under CI, which installs it (.ci/run).

const run = promisify(execFile);
const DIR = packagePath('gateway', 'metrics');

const missing = await run('promtool', ['--version']).then(
  () => undefined,
  () => 'promtool is not installed (apt-get install prometheus)',
);

describe('CI has promtool', () => {
  it.runIf(process.env.CI === 'true')('under CI the alert rules are never skipped', () => {
    expect(missing).toBeUndefined();
  });
});

describe.skipIf(missing !== undefined)(
  `the alert rules under promtool${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    it('parse: promtool check rules', async () => {
      const { stdout } = await run('promtool', ['check', 'rules', 'alert-rules.yml'], { cwd: DIR });
      expect(stdout).toContain('SUCCESS: 2 rules found');
    });

    it('fire on series past their thresholds and stay silent below: promtool test rules', async () => {
      const { stdout } = await run('promtool', ['test', 'rules', 'alert-rules.test.yml'], { cwd: DIR });
      expect(stdout).toContain('SUCCESS');
    });

    it('name only metrics the gateway exports', async () => {
      const { readFile } = await import('node:fs/promises');
      const { createGatewayMetrics } = await import('./gateway-metrics');
      const rules = await readFile(`${DIR}/alert-rules.yml`, 'utf8');
      const exported = (await createGatewayMetrics({ processMetrics: false }).registry.getMetricsAsJSON()).map(
        (m) => m.name,
      );
      const named = [...new Set(rules.match(/gateway_[a-z_]+(?=[[{)\s])/g))];
      expect(named.length).toBeGreaterThan(0);
      for (const name of named) expect(exported, name).toContain(name.replace(/_count$/, ''));
    });
  },
);
