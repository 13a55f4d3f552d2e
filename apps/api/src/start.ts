import 'reflect-metadata';
import {
  createHttpApp,
  exitIfPortTaken,
  exitOnStartFailure,
  listen,
  loadConfigOrExit,
  StartupProgressModule,
} from '#app/platform';
import { describeMode } from '../../common/core.js';
import { hintIfNoOrganisation } from '../../common/no-organisation-hint.js';
import { ApiModule } from './api.module.js';

const config = loadConfigOrExit();
await exitIfPortTaken(config.http);
const api = ApiModule.forRoot(config);
// Migrations (and, embedded, creating the database) are said in the log as they happen.
const app = await createHttpApp({ ...api, imports: [StartupProgressModule.inLog(), ...(api.imports ?? [])] }).catch(
  exitOnStartFailure,
);
await listen(app, config.http, `api, ${describeMode(config)}`);
await hintIfNoOrganisation(app, config);
