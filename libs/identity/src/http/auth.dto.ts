import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

export class PreAuthTokenBody {
  @ApiProperty({ format: 'email' }) @IsEmail() @MaxLength(254) email!: string;
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(1024) password!: string;
}

export class CreateJwtBody {
  @ApiProperty({ description: 'The pre-authentication token' }) @IsString() @MinLength(1) @MaxLength(512) token!: string;
  @ApiPropertyOptional({ description: 'Leave the profile claims (email, name, title, org_slug) out of the JWT' })
  @IsOptional() @IsBoolean() minimal?: boolean;
  @ApiPropertyOptional({ nullable: true, description: 'The two-factor key: the e-mailed or texted code, the app code, or the magic link key' })
  @IsOptional() @IsString() @MaxLength(256) key?: string | null;
}

export class RefreshJwtBody {
  @ApiProperty({ description: 'The JWT to refresh; it may have expired, within JWT_REFRESH_TTL of its issue' })
  @IsString() @MinLength(1) @MaxLength(4096) token!: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() minimal?: boolean;
}

export class PreAuthTokenResponse {
  @ApiProperty() token!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
  @ApiProperty({ nullable: true, enum: ['email', 'sms', 'auth_app', 'magic_link'] }) two_factor!: string | null;
}

export class JwtResponse {
  @ApiProperty() token!: string;
}
