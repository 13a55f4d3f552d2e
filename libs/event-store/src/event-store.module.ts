import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Checkpoints } from './checkpoints.js';
import { EventStore } from './event-store.js';
import { HistoryReader } from './history/history-reader.js';
import { InlineProjections } from './inline-projections.js';
import { ProjectionRegistry } from './projection-registry.js';
import { ReactorRegistry } from './reactor-registry.js';
import { PersonalDataKeys } from './personal-data/personal-data-keys.js';
import { ProjectionReplayer } from './replay.js';
import { EventUpcasters } from './upcasters.js';

const exported = [
  EventStore,
  EventUpcasters,
  ProjectionRegistry,
  ReactorRegistry,
  Checkpoints,
  ProjectionReplayer,
  HistoryReader,
  PersonalDataKeys,
];

/** The log and its projections; every process imports it. Needs the database module. */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [...exported, InlineProjections],
  exports: exported,
})
export class EventStoreModule {}
