import { runAsProcess } from '../cli/command-io';
import { verifyCommand } from '../cli/verify-command';

// npm run verify -- --seller-url <url> [options]: see cli/verify-command.ts.
runAsProcess(verifyCommand);
