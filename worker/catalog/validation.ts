/** zod error formatting shared by the endpoints and the import (no Hono dependency). */
import type { z } from 'zod'

/** Formats zod issues as 'field: message; field2: message' (first five). */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ')
}
