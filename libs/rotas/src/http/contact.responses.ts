import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { UserBaseDto } from '#app/identity';
import type { ContactView } from '../rota/contacts.queries.js';
import type { ContactFailure, ContactValidation } from '../rota/validate-contacts.js';

const ID = { type: 'integer', format: 'int64', minimum: 1 } as const;

/** The interface's Rota contact (docs/rota-domain.md#record-shapes, #contacts). */
@ApiSchema({ name: 'RotaContact', description: 'A designated contact of a rota (the spec’s Rota contact)' })
export class ContactDto implements ContactView {
  @ApiProperty({ ...ID, description: 'The contact record’s id (DELETE /api/rotas/{rota}/contacts/{id} takes it)' })
  id!: number;
  @ApiProperty(ID) user_id!: number;
  @ApiProperty({ type: UserBaseDto }) user!: UserBaseDto;
}

@ApiSchema({ name: 'ContactTarget', description: 'A rota or team the user cannot see' })
export class ContactTargetDto {
  @ApiProperty({ ...ID, description: 'The rota’s id (rota_ids) or the team’s (team_ids)' }) id!: number;
  @ApiProperty({ type: 'string' }) name!: string;
}

@ApiSchema({ name: 'ContactFailure' })
export class ContactFailureDto implements ContactFailure {
  @ApiProperty(ID) user_id!: number;
  @ApiProperty({ type: 'string' }) display_name!: string;
  @ApiProperty({ type: 'boolean', description: 'The user holds neither add-user-shifts nor manage-rotas' })
  missing_permission!: boolean;
  @ApiProperty({ type: [ContactTargetDto], description: 'The targets the user cannot see, in the order sent' })
  unseen_targets!: ContactTargetDto[];
}

@ApiSchema({ name: 'ContactValidation' })
export class ContactValidationDto implements ContactValidation {
  @ApiProperty({ type: 'boolean', description: 'No failures' }) valid!: boolean;
  @ApiProperty({
    type: [ContactFailureDto],
    description: 'Each user who cannot see some target or lacks both permissions, in the order sent, once each',
  })
  failures!: ContactFailureDto[];
}
