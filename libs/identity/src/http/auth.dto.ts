import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class PreAuthTokenBody {
  @ApiProperty({ type: 'string', format: 'email', maxLength: 254 }) @IsEmail() @MaxLength(254) email!: string;
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 1024 })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password!: string;
}

export class CreateJwtBody {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 512, description: 'The pre-authentication token' })
  @IsString()
  @MinLength(1)
  @MaxLength(512)
  token!: string;
  @ApiPropertyOptional({
    type: 'boolean',
    description: 'Leave the profile claims (email, name, title, org_slug) out of the JWT',
  })
  @IsOptional()
  @IsBoolean()
  minimal?: boolean;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 256,
    description: 'The two-factor key: the e-mailed or texted code, the app code, or the magic link key',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  key?: string | null;
}

export class RefreshJwtBody {
  @ApiProperty({
    type: 'string',
    minLength: 1,
    maxLength: 4096,
    description: 'The JWT to refresh; it may have expired, within JWT_REFRESH_TTL of its issue',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(4096)
  token!: string;
  @ApiPropertyOptional({ type: 'boolean', description: 'Leave the profile claims out of the new JWT' })
  @IsOptional()
  @IsBoolean()
  minimal?: boolean;
}
