import { parseArgs } from 'node:util';
import {
  brokerEnvironment,
  brokerSettings,
  BrokerSettingsError,
  gitVersion,
  runPactBroker,
} from '../contracts/pact/broker-cli';
import { CONSUMER } from '../contracts/pact/pact-names';

// npm run pact:can-i-deploy [-- --to-environment <env>] [--pacticipant <name>] [--version <v>]
// Asks the broker whether this commit of the gateway can go to an environment
// (default: PACT_ENVIRONMENT, else production). Exit 0 yes, non-zero no.

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'to-environment': { type: 'string' },
      pacticipant: { type: 'string', default: CONSUMER },
      version: { type: 'string' },
      'retry-while-unknown': { type: 'string' },
    },
  });
  try {
    const settings = brokerSettings(process.env);
    const version = values.version ?? gitVersion(process.env).sha;
    const environment = values['to-environment'] ?? brokerEnvironment(process.env).PACT_ENVIRONMENT;
    process.stderr.write(
      `pact:can-i-deploy: ${values.pacticipant} ${version} to ${environment}? (${settings.baseUrl})\n`,
    );
    return await runPactBroker(
      [
        'can-i-deploy',
        '--pacticipant',
        values.pacticipant!,
        '--version',
        version,
        '--to-environment',
        environment,
        ...(values['retry-while-unknown'] ? ['--retry-while-unknown', values['retry-while-unknown']] : []),
      ],
      settings,
    );
  } catch (error) {
    if (error instanceof BrokerSettingsError) {
      process.stderr.write(`pact:can-i-deploy: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await main();
