import { Global, Module } from '@nestjs/common';
import { RateLimiter } from './rate-limiter.js';
import { SecretBox } from './secret-box.js';

@Global()
@Module({ providers: [SecretBox, RateLimiter], exports: [SecretBox, RateLimiter] })
export class SecurityModule {}
