export { IdentityModule } from './identity.module.js';
export { IdentityHttpModule } from './identity-http.module.js';
export { IdentityWorkerModule } from './identity-worker.module.js';
export { type Caller, CurrentCaller } from './auth/caller.js';
export { RequirePermission } from './auth/decorators.js';
export { Hierarchy } from './hierarchy/hierarchy.js';
export { type UserBase, UserBases } from './hierarchy/user-base.js';
export { PERMISSIONS, type Permission } from './permissions.js';
export { ProvisionCommand, ProvisioningRefused, type ProvisionResult } from './provisioning/provision.command.js';
