/**
 * The field rules the product authoring form shares between its parts: whole numbers, text with a
 * length limit, SKUs, and a refusal that names the field it concerns (shown beside it when the post
 * came from a form, ./replies.ts).
 */
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'

/** A refusal of one field of the product form. */
export function refuseField(status: 400 | 409, field: string, message: string): never {
  throw new HTTPException(status, {
    message: `Invalid product: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

/** A whole number from 0 to `max`, typed or given as a number. */
export const digits = (name: string, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}$/, `${name} must be a whole number`)
        .transform(Number),
    ])
    .pipe(
      z
        .number()
        .int(`${name} must be a whole number`)
        .min(0, `${name} must not be negative`)
        .max(max, `${name} is too large`),
    )

export const text = (name: string, max: number) =>
  z.string().trim().max(max, `${name} is too long (at most ${max} characters)`)

/** A SKU: letters, digits, spaces, _ . - (what carts, orders and the importer accept). */
export const skuText = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .max(64, `${name} is too long (at most 64 characters)`)
    .regex(/^[A-Za-z0-9][A-Za-z0-9 _.-]*$/, `${name}: letters, digits, spaces, _ . or - only`)
