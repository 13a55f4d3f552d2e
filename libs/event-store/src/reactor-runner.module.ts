import { Module } from '@nestjs/common';
import { ReactorRunner } from './reactor-runner.js';

/** Only the worker (and the standalone process) follows the log. */
@Module({ providers: [ReactorRunner], exports: [ReactorRunner] })
export class ReactorRunnerModule {}
