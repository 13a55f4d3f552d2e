import { exitOnUnsupportedNode } from '../../common/supported-node.js';

// The entry point of the admin command line (`npm run cli`): the Node version is checked before anything
// else is loaded (supported-node.ts), then ./cli.js runs.
exitOnUnsupportedNode();
await import('./cli.js');
