import { exitOnUnsupportedNode } from '../../common/supported-node.js';

// The entry point of the worker process (`npm run start:worker`): the Node version is checked before anything
// else is loaded (supported-node.ts), then ./start.js runs.
exitOnUnsupportedNode();
await import('./start.js');
