import { Global, Module } from '@nestjs/common';
import { KeyedHash } from './keyed-hash.js';
import { RateLimiter } from './rate-limiter.js';
import { SecretBox } from './secret-box.js';

@Global()
@Module({ providers: [SecretBox, KeyedHash, RateLimiter], exports: [SecretBox, KeyedHash, RateLimiter] })
export class SecurityModule {}
