import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { HEALTH_QUEUE, HealthController } from './health.controller.js';

@Module({ imports: [BullModule.registerQueue({ name: HEALTH_QUEUE })], controllers: [HealthController] })
export class HealthModule {}
