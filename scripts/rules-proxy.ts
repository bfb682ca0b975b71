import { runAsProcess } from '../cli/command-io';
import { rulesProxyCommand } from '../cli/rules-proxy-command';

// npm run rules-proxy -- --upstream <seller url> [--port <n>] [--report <file>] [--junit <file>]
runAsProcess(rulesProxyCommand);
