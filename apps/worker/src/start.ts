import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { exitOnStartFailure, loadConfigOrExit, StartFailureLogger } from '#app/platform';
import { describeMode } from '../../common/core.js';
import { WorkerModule } from './worker.module.js';

const config = loadConfigOrExit();
// A start refused (migrations not run, the embedded database in use) is one line and exit 1.
const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
  bufferLogs: true,
  logger: new StartFailureLogger(),
  abortOnError: false,
}).catch(exitOnStartFailure);
app.useLogger(app.get(Logger));
app.enableShutdownHooks();
app.get(Logger).log(`worker running (mode: ${describeMode(config)})`, 'Bootstrap');
