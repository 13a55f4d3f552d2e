import { Module } from '@nestjs/common';
import { AnonymiseController } from './anonymise/anonymise.controller.js';
import { PrivacyModule } from './privacy.module.js';

/** The privacy routes (docs/privacy.md). */
@Module({
  imports: [PrivacyModule],
  controllers: [AnonymiseController],
})
export class PrivacyHttpModule {}
