import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { loadConfigOrExit } from '#app/platform';
import { describeMode } from '../../common/core.js';
import { WorkerModule } from './worker.module.js';

const config = loadConfigOrExit();
const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { bufferLogs: true });
app.useLogger(app.get(Logger));
app.enableShutdownHooks();
app.get(Logger).log(`worker running (mode: ${describeMode(config)})`, 'Bootstrap');
