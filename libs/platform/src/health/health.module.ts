import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { HEALTH_QUEUE, HealthController } from './health.controller.js';
import { RootController } from './root.controller.js';

@Module({
  imports: [BullModule.registerQueue({ name: HEALTH_QUEUE })],
  controllers: [RootController, HealthController],
})
export class HealthModule {}
