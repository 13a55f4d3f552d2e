import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AsReactor, type Reactor } from './reactor.js';

@Injectable()
export class ReactorRegistry implements OnModuleInit {
  private readonly reactors = new Map<string, Reactor>();

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: AsReactor.KEY })) {
      if (wrapper.instance) this.add(wrapper.instance as Reactor);
    }
  }

  add(reactor: Reactor): void {
    if (this.reactors.has(reactor.name)) throw new Error(`Reactor ${reactor.name} is registered twice`);
    const sharing = this.all().find((r) => r.queue === reactor.queue);
    if (sharing) throw new Error(`Reactors ${sharing.name} and ${reactor.name} share queue ${reactor.queue}`);
    this.reactors.set(reactor.name, reactor);
  }

  all(): Reactor[] {
    return [...this.reactors.values()];
  }
}
