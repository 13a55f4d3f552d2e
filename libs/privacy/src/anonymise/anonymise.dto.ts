import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'AnonymiseSelfBody' })
export class AnonymiseSelfBody {
  @ApiProperty({ type: 'string', description: 'The caller’s own password, asked again' })
  password!: string;
}

@ApiSchema({ name: 'AnonymisedUser' })
export class AnonymisedUserDto {
  @ApiProperty({ type: 'integer', minimum: 1 }) id!: number;
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the user was anonymised' })
  anonymised_at!: string;
}
