/**
 * Which fields of which events hold whose personal data (docs/privacy.md, "Sealed fields in the
 * log"). Each context declares its own event types in `<context>.personal-data.ts`; the store seals
 * those fields on append with the owner's key and opens them on every read. A field that only
 * looks personal (a team's description, a rota's name) is declared as the organisation's, so the
 * registry names every such field one way or the other (personal-data-coverage.spec.ts).
 *
 * Paths are dotted (`changes.description`); arrays are transparent (`timeslots.name` is the name of
 * every timeslot) and `*` stands for any key of a record. Only top-level and plain nested object
 * paths can be personal (sealed); organisation paths may use arrays and `*`.
 */
export interface PersonalDataDeclaration<D = Record<string, unknown>> {
  /** The user whose data the fields are (their key seals them); null/undefined: nobody's, nothing to seal. */
  readonly owner: (data: D) => number | null | undefined;
  /**
   * Path → the value every reader sees once the owner's key is destroyed: a value, or a function
   * of the event's data (its other fields; e.g. an e-mail placeholder unique per user id).
   */
  readonly fields: Readonly<Record<string, Placeholder<D>>>;
}

export type Placeholder<D = Record<string, unknown>> = unknown | ((data: D) => unknown);

export interface PersonalFields {
  /** The declared owner function; called with the event's data as stored (the declared type's shape). */
  readonly owner: (data: unknown) => number | null | undefined;
  readonly paths: readonly (readonly string[])[];
  readonly placeholders: readonly unknown[];
  /** The dotted paths, as declared. */
  readonly names: readonly string[];
}

class PersonalDataRegistry {
  private readonly personal = new Map<string, PersonalFields>();
  private readonly organisations = new Map<string, Set<string>>();

  /** The personal fields of `types` (each type is declared once). */
  declare<D = Record<string, unknown>>(
    types: string | readonly string[],
    declaration: PersonalDataDeclaration<D>,
  ): void {
    for (const type of typeof types === 'string' ? [types] : types) {
      const existing = this.personal.get(type);
      const names = Object.keys(declaration.fields);
      if (existing) {
        // Importing a context's file twice (two module graphs in one test) declares the same again.
        if (existing.names.join('\0') === names.join('\0')) continue;
        throw new Error(`Personal data of ${type} is declared twice, differently`);
      }
      for (const name of names)
        if (name.includes('*')) throw new Error(`A personal field cannot be a pattern (${type}: ${name})`);
      this.personal.set(type, {
        owner: declaration.owner as PersonalFields['owner'],
        names,
        paths: names.map((n) => n.split('.')),
        placeholders: names.map((n) => declaration.fields[n]),
      });
    }
  }

  /** Fields of `types` that look personal and are the organisation's: never sealed. */
  organisation(types: string | readonly string[], paths: readonly string[]): void {
    for (const type of typeof types === 'string' ? [types] : types) {
      const set = this.organisations.get(type) ?? new Set<string>();
      for (const p of paths) set.add(p);
      this.organisations.set(type, set);
    }
  }

  fieldsOf(type: string): PersonalFields | undefined {
    return this.personal.get(type);
  }

  /** Whether `path` (dotted, arrays transparent) of `type` is named, as personal or the organisation's. */
  names(type: string, path: string): 'personal' | 'organisation' | undefined {
    if (this.personal.get(type)?.names.includes(path)) return 'personal';
    const org = this.organisations.get(type);
    if (org) {
      const parts = path.split('.');
      for (const p of org) {
        const pattern = p.split('.');
        if (pattern.length === parts.length && pattern.every((q, i) => q === '*' || q === parts[i]))
          return 'organisation';
      }
    }
    return undefined;
  }

  /** Every type with personal fields. */
  personalTypes(): string[] {
    return [...this.personal.keys()];
  }
}

/** The one registry of the process (contexts fill it when their index.ts is imported). */
export const personalData = new PersonalDataRegistry();
export type { PersonalDataRegistry };
