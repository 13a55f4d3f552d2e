import { Module } from '@nestjs/common';
import { OrganisationController } from './http/organisation.controller.js';
import { OrganisationModule } from './organisation.module.js';

@Module({ imports: [OrganisationModule], controllers: [OrganisationController] })
export class OrganisationHttpModule {}
