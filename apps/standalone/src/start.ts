import 'reflect-metadata';
import { createHttpApp, exitIfPortTaken, exitOnStartFailure, listen, loadConfigOrExit } from '#app/platform';
import { describeMode } from '../../common/core.js';
import { hintIfNoOrganisation } from '../../common/no-organisation-hint.js';
import { readyBanner } from './ready-banner.js';
import { StandaloneModule } from './standalone.module.js';

const config = loadConfigOrExit();
// A busy port is said at once, before the database is opened (port-check.ts).
await exitIfPortTaken(config.http);
// A start refused (the embedded database in use by another npm start) is one line and exit 1.
const app = await createHttpApp(StandaloneModule.forRoot(config)).catch(exitOnStartFailure);
await listen(app, config.http, `api + worker, ${describeMode(config)}`);
await hintIfNoOrganisation(app, config);
// The log's last record says `serving <url>`; on a terminal (LOG_PRETTY) a person reads it among
// the start-up records, so the address and where to go next follow, set apart.
if (config.log.pretty && !config.log.destination) process.stdout.write(readyBanner(config));
