import type { Section } from './section.js';

export interface SectionRepository {
  findById(id: number): Promise<Section | null>;
  nameTaken(name: string): Promise<boolean>;
  add(section: Section): Promise<void>;
}
export const SectionRepository = Symbol.for('SectionRepository');
