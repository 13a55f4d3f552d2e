import { SetMetadata } from '@nestjs/common';
import type { Permission } from '../permissions.js';

export const REQUIRED_PERMISSIONS = 'identity:permissions';

/** The caller must hold every permission named; otherwise 403. */
export const RequirePermission = (...permissions: Permission[]) => SetMetadata(REQUIRED_PERMISSIONS, permissions);
