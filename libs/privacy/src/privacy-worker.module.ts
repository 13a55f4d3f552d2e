import { Module } from '@nestjs/common';
import { PrivacyModule } from './privacy.module.js';

/** The privacy context's processors (the retention sweep's, once it exists). */
@Module({
  imports: [PrivacyModule],
})
export class PrivacyWorkerModule {}
