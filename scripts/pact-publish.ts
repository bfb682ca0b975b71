import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  brokerEnvironment,
  brokerSettings,
  BrokerSettingsError,
  gitVersion,
  runPactBroker,
  uncommitted,
} from '../contracts/pact/broker-cli';
import { PACTS_DIR } from '../contracts/pact/pact-names';

// npm run pact:publish [-- --allow-dirty] [--pacts <file | directory>]
// Publishes contracts/pacts/ (or --pacts: e.g. the pending-marked next contract that
// `npm run contract:pending` wrote) with `pact-broker publish`: consumer version = git SHA,
// --branch = git branch. PACT_BROKER_BASE_URL and PACT_BROKER_TOKEN come from the environment.

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'allow-dirty': { type: 'boolean', default: false },
      'build-url': { type: 'string' },
      pacts: { type: 'string' },
    },
  });
  const pacts = values.pacts ?? PACTS_DIR;
  try {
    const settings = brokerSettings(process.env);
    const { sha, branch } = gitVersion(process.env);
    const dirty = uncommitted(PACTS_DIR);
    if (dirty.length > 0 && !values['allow-dirty']) {
      throw new BrokerSettingsError(
        `contracts/pacts has uncommitted changes (${dirty.join(', ')}); commit them first, or pass --allow-dirty`,
      );
    }
    const buildUrl = values['build-url'] ?? brokerEnvironment(process.env).BUILD_URL;
    // A --pacts file is derived from contracts/pacts (contract:pending), so that must be committed too.
    if (!existsSync(pacts)) throw new BrokerSettingsError(`--pacts ${pacts} does not exist`);
    process.stderr.write(
      `pact:publish: ${pacts} as federated-gateway ${sha} (branch ${branch}) to ${settings.baseUrl}\n`,
    );
    return await runPactBroker(
      [
        'publish',
        pacts,
        '--consumer-app-version',
        sha,
        '--branch',
        branch,
        ...(buildUrl ? ['--build-url', buildUrl] : []),
      ],
      settings,
    );
  } catch (error) {
    if (error instanceof BrokerSettingsError) {
      process.stderr.write(`pact:publish: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main();
