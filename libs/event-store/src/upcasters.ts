import { Injectable } from '@nestjs/common';

export type Upcast = (data: unknown) => unknown;

/**
 * Old event shapes are upcast when read, never rewritten in the log. An upcaster lifts one type
 * from `fromVersion` to `fromVersion + 1`; chains run until no upcaster matches.
 */
@Injectable()
export class EventUpcasters {
  private readonly steps = new Map<string, Upcast>();

  register(type: string, fromVersion: number, upcast: Upcast): void {
    const key = `${type}@${fromVersion}`;
    if (this.steps.has(key)) throw new Error(`Upcaster ${key} is registered twice`);
    this.steps.set(key, upcast);
  }

  upcast(type: string, schemaVersion: number, data: unknown): { schemaVersion: number; data: unknown } {
    let version = schemaVersion;
    let current = data;
    for (let step = this.steps.get(`${type}@${version}`); step; step = this.steps.get(`${type}@${version}`)) {
      current = step(current);
      version += 1;
    }
    return { schemaVersion: version, data: current };
  }
}
