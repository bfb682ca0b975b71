import { runAsProcess } from './command-io';
import { main } from './main';

// The installed CLI's entry (bundled to packages/toolkit/dist/federated-gateway.mjs by `npm run build`).
runAsProcess(main);
