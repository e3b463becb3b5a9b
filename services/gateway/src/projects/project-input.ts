import { BadRequestException } from '@nestjs/common';
import {
  sanitizeText,
  validateProjectDescription,
  validateProjectName,
  VALIDATION_MESSAGES,
} from '@memtrail/contracts';

type Body = Record<string, unknown> | undefined;

export interface ProjectFields {
  name?: string;
  description?: string | null;
}

function name(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  const problem = validateProjectName(text);
  if (problem) throw new BadRequestException(problem);
  return text;
}

function description(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new BadRequestException(VALIDATION_MESSAGES.invalidFormat);
  const problem = validateProjectDescription(value);
  if (problem) throw new BadRequestException(problem);
  // Same cleaning as the web form (spec §5): no tags or angle brackets are stored.
  const cleaned = sanitizeText(value);
  return cleaned ? cleaned : null;
}

/** Create: a valid name is required, the description optional (spec §5). */
export function createProjectInput(body: Body): { name: string; description: string | null } {
  return { name: name(body?.name), description: description(body?.description) };
}

/** Update: only the fields present are changed; at least one must be. */
export function updateProjectInput(body: Body): ProjectFields {
  const fields: ProjectFields = {};
  if (body && 'name' in body) fields.name = name(body.name);
  if (body && 'description' in body) fields.description = description(body.description);
  if (Object.keys(fields).length === 0) {
    throw new BadRequestException('Send name or description to update');
  }
  return fields;
}
