export { IdentityModule } from './identity.module.js';
export { IdentityHttpModule } from './identity-http.module.js';
export { IDENTITY_QUEUES, IdentityWorkerModule } from './identity-worker.module.js';
export { type Caller, CurrentCaller } from './auth/caller.js';
export { metadataOf } from './auth/metadata.js';
export { RequirePermission } from './auth/decorators.js';
export { Hierarchy } from './hierarchy/hierarchy.js';
export { type OrganisationFacts, OrganisationFactsReader } from './hierarchy/organisation-facts.js';
export { type OrganisationSummary, type UserAccount, UserAccounts } from './hierarchy/user-accounts.js';
export { type TeamObject, Teams } from './hierarchy/teams.js';
export { type UserBase, UserBases } from './hierarchy/user-base.js';
export { type RoleProfileView, type RoleView, Roles } from './hierarchy/roles.js';
export { PERMISSIONS, type Permission } from './permissions.js';
export { CurrentUserDto, RoleDto, RoleProfileDto, UserBaseDto, UserStatusDto } from './http/user.responses.js';
export { HistoryEntryDto } from './http/history-entry.responses.js';
export { ProvisionCommand, ProvisioningRefused, type ProvisionResult } from './provisioning/provision.command.js';
export { IdentityAdminModule } from './user/identity-admin.module.js';
export { AddUsersCommand, type AddUsersResult } from './user/add-users.command.js';
export { GrantPermissionsCommand } from './user/grant-permissions.command.js';
export { RevokePermissionsCommand } from './user/revoke-permissions.command.js';
export { HoldUserCommand } from './user/hold-user.command.js';
export type { HoldResult } from './user/hold-or-release.js';
export { ReleaseUserCommand } from './user/release-user.command.js';
export { UnknownOrganisation, UnknownUser, type UserAccess } from './user/admin.js';
export { unknownPermissions } from './user/user.js';
export {
  ORGANISATION_SETTINGS_POLICY,
  type OrganisationSettingsPolicy,
} from './provisioning/organisation-settings-policy.js';
export {
  type AnonymisationRequester,
  type DirectoryEvent,
  streamOf as identityStreamOf,
  gateOf as identityGateOf,
  type UserAnonymisedData,
  type UserAnonymisedEvent,
} from './directory/directory.events.js';
export { ANONYMISED_NAME } from './directory/directory.projection.js';
export { evolve as evolveUser, type UserState } from './user/user.js';
export { PasswordCheck } from './login/password-check.js';
export { ARGON2_OPTIONS } from './login/password-hasher.js';
export {
  type IdentityPersonalData,
  type LocatedUser,
  PersonalDataOfUsers,
  type PersonalUserView,
} from './privacy/personal-data.js';
export { type AnonymisationSubject, anonymisedUsers, subjectIn, usersNamed } from './user/anonymised-users.js';
