import 'reflect-metadata';
import { createHttpApp, listen, loadConfigOrExit } from '#app/platform';
import { describeMode } from '../../common/core.js';
import { ApiModule } from './api.module.js';

const config = loadConfigOrExit();
const app = await createHttpApp(ApiModule.forRoot(config));
await listen(app, config.http, `api, ${describeMode(config)}`);
