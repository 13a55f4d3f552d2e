import { exitOnUnsupportedNode } from '../../common/supported-node.js';

// The entry point of `npm start`: the API and the worker in one process: the Node version is checked before anything
// else is loaded (supported-node.ts), then ./start.js runs.
exitOnUnsupportedNode();
await import('./start.js');
