import { Module } from '@nestjs/common';
import { IdentityModule } from '#app/identity';
import { OrganisationModule } from '#app/organisation';
import { RotaIds } from './next-id.js';
import { BULK_PROVIDERS } from './rota/bulk.providers.js';
import { ROTA_PROVIDERS } from './rota/rota.providers.js';
import { RotasPolicy } from './rotas.policy.js';
import { SHIFT_PATTERN_PROVIDERS } from './shift-pattern/shift-pattern.providers.js';

@Module({
  imports: [IdentityModule, OrganisationModule],
  providers: [RotasPolicy, RotaIds, ...SHIFT_PATTERN_PROVIDERS, ...ROTA_PROVIDERS, ...BULK_PROVIDERS],
  // The areas' providers are exported too: their controllers live in RotasHttpModule, which imports this module.
  exports: [RotasPolicy, RotaIds, IdentityModule, ...SHIFT_PATTERN_PROVIDERS, ...ROTA_PROVIDERS, ...BULK_PROVIDERS],
})
export class RotasModule {}
