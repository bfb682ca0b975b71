import { runAsProcess } from '../cli/command-io';
import { mockSellerCommand } from '../cli/mock-seller-command';

// npm run mock-seller -- [--scenario <file> | --pact <file>] --port <n> [--host <h>] [--public-url <url>]
// Only wires the process; the command is cli/mock-seller-command.ts, the app createMockSeller.
runAsProcess(mockSellerCommand);
