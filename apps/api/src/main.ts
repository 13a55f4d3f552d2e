import { exitOnUnsupportedNode } from '../../common/supported-node.js';

// The entry point of the API process (`npm run start:api`): the Node version is checked before anything
// else is loaded (supported-node.ts), then ./start.js runs.
exitOnUnsupportedNode();
await import('./start.js');
