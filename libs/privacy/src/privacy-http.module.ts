import { Module } from '@nestjs/common';
import { PersonalDataController } from './export/http/personal-data.controller.js';
import { PrivacyModule } from './privacy.module.js';

/** The privacy routes (api role). */
@Module({
  imports: [PrivacyModule],
  controllers: [PersonalDataController],
})
export class PrivacyHttpModule {}
