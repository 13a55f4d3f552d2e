import { Module } from '@nestjs/common';
import { Mailer } from './mailer.js';
import { SmsSender } from './sms-sender.js';

/** Not global: only the modules that notify people import it. Needs ConfigModule.forRoot() for APP_CONFIG. */
@Module({ providers: [Mailer, SmsSender], exports: [Mailer, SmsSender] })
export class MessagingModule {}
