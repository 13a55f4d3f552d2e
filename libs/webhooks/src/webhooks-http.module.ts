import { Module } from '@nestjs/common';
import { WebhooksController } from './http/webhooks.controller.js';
import { WebhooksModule } from './webhooks.module.js';

@Module({ imports: [WebhooksModule], controllers: [WebhooksController] })
export class WebhooksHttpModule {}
