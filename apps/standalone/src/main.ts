import 'reflect-metadata';
import { createHttpApp, listen, loadConfigOrExit } from '#app/platform';
import { describeMode } from '../../common/core.js';
import { StandaloneModule } from './standalone.module.js';

const config = loadConfigOrExit();
const app = await createHttpApp(StandaloneModule.forRoot(config));
await listen(app, config.http, `api + worker, ${describeMode(config)}`);
