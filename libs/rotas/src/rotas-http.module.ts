import { Module } from '@nestjs/common';
import { BULK_CONTROLLERS } from './rota/bulk.providers.js';
import { ROTA_CONTROLLERS } from './rota/rota.providers.js';
import { RotasModule } from './rotas.module.js';
import { SHIFT_PATTERN_CONTROLLERS } from './shift-pattern/shift-pattern.providers.js';

@Module({ imports: [RotasModule], controllers: [...SHIFT_PATTERN_CONTROLLERS, ...ROTA_CONTROLLERS, ...BULK_CONTROLLERS] })
export class RotasHttpModule {}
