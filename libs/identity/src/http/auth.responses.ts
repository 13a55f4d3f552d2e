import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { TWO_FACTOR_METHODS, type TwoFactorMethod } from '../permissions.js';

/** The interface's Pre-authentication token (docs/http-conventions.md#authentication). */
@ApiSchema({ name: 'PreAuthToken' })
export class PreAuthTokenDto {
  @ApiProperty({ type: 'string', description: 'Single use; pass it to POST /auth/api/token' }) token!: string;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'PRE_AUTH_TTL seconds after issue' })
  expires_at!: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: [...TWO_FACTOR_METHODS, null],
    description:
      'The user’s two-factor method, whose key has already been sent; null: none, POST /auth/api/token needs no key',
  })
  two_factor!: TwoFactorMethod | null;
}

/** The interface's JSON Web Token (docs/http-conventions.md#authentication). */
@ApiSchema({ name: 'JsonWebToken' })
export class JwtDto {
  @ApiProperty({ type: 'string', description: 'HS256 JWT; send it as `Authorization: Bearer …`' }) token!: string;
}
