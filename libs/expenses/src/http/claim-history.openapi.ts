import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HistoryEntryDto, UserBaseDto } from '#app/identity';
import { ApiErrors, ApiIdParam, ApiListQuery, ApiPaginated, ApiDocs } from '#app/platform';

/** What the OpenAPI document says of ClaimHistoryController: one composed decorator per route. */
export const ClaimHistoryDocs = {
  controller: () => ApiDocs(ApiTags('claims'), ApiBearerAuth(), ApiExtraModels(UserBaseDto)),
  history: () =>
    ApiDocs(
      ApiOperation({
        operationId: 'listClaimHistory',
        summary: 'Claim history',
        description:
          'Addition. Permission: as GET /api/users/{userId}/claims/{id}: the caller’s own, or of a user the caller has approve-claims over; another user of ' +
          'the organisation is a 403, an unknown user or claim (or one of another user) a 404. Its events, oldest first, in the pagination envelope: at ' +
          '(ISO 8601), actor (a UserBase; null for the system), action (the event’s name) and changes (the fields it set, with the Claim’s field names and ' +
          'output shapes). Actions: ClaimCreated, ClaimChanged, ClaimApproved, ClaimRejected, ClaimSubmitted, ' +
          'ClaimSubmissionMailed (the finance mail went out; no field).',
      }),
      ApiIdParam('userId', 'User id: the owner'),
      ApiIdParam('id', 'Claim id'),
      ApiListQuery(),
      ApiPaginated(HistoryEntryDto),
      ApiErrors(400, 401, 403, 404, 406, 422),
    ),
};
