import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AsProjection, type Projection } from './projection.js';

/** Every `@AsProjection()` provider of the application, found once at start-up. */
@Injectable()
export class ProjectionRegistry implements OnModuleInit {
  private byName = new Map<string, Projection>();
  private byType = new Map<string, Projection[]>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const found = this.discovery
      .getProviders({ metadataKey: AsProjection.KEY })
      .map((wrapper) => wrapper.instance as Projection)
      .filter(Boolean);
    for (const projection of found) this.add(projection);
  }

  add(projection: Projection): void {
    if (this.byName.has(projection.name)) throw new Error(`Projection ${projection.name} is registered twice`);
    this.byName.set(projection.name, projection);
    for (const type of projection.handles) this.byType.set(type, [...(this.byType.get(type) ?? []), projection]);
  }

  all(): Projection[] {
    return [...this.byName.values()];
  }

  forType(type: string): readonly Projection[] {
    return this.byType.get(type) ?? [];
  }

  /** The named projections (all when none is named); an unknown name is an error. */
  select(names: readonly string[]): Projection[] {
    if (names.length === 0) return this.all();
    return names.map((name) => {
      const projection = this.byName.get(name);
      if (!projection)
        throw new Error(`Unknown projection "${name}"; known: ${[...this.byName.keys()].join(', ') || 'none'}`);
      return projection;
    });
  }
}
