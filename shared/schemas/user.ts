/**
 * Account payloads of /api/user/* (the vue-storefront-api user endpoints). Request schemas strip unknown keys, so a
 * client can never set server-owned fields such as group_id or password hashes.
 */
import { z } from 'zod'

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} is too long`)

export const EmailSchema = z
  .string({ error: 'email is required' })
  .trim()
  .max(254, 'email is too long')
  .pipe(z.email({ error: 'email is not a valid e-mail address' }))

/** "≥ 8 characters with a letter and a digit." */
const PASSWORD_POLICY_MESSAGE =
  'Password must be at least 8 characters long and contain at least one letter and one digit.'
const PasswordSchema = z
  .string({ error: 'password is required' })
  .max(256, 'Password is too long (at most 256 characters).')
  .refine((p) => p.length >= 8 && /[A-Za-z]/.test(p) && /\d/.test(p), PASSWORD_POLICY_MESSAGE)

/** One address of the address book, as the account form and checkout save it (the one validator). */
export const AddressSchema = z.object({
  id: z.number().int().positive().optional(),
  customer_id: z.number().int().positive().optional(),
  region: z
    .object({
      region_code: z.string().max(50).nullish(),
      region: z.string().max(100).nullish(),
      region_id: z.number().int().nullish(),
    })
    .optional(),
  region_id: z.number().int().nullish(),
  country_id: z.string().trim().length(2, 'country_id must be a 2-letter country code'),
  street: z.array(z.string().max(255)).min(1, 'street needs at least one line').max(4),
  telephone: z.string().max(40).optional(),
  postcode: z.string().max(20).optional(),
  city: z.string().trim().min(1, 'city is required').max(100),
  firstname: name('firstname'),
  lastname: name('lastname'),
  company: z.string().max(255).nullish(),
  vat_id: z.string().max(50).nullish(),
  default_shipping: z.boolean().optional(),
  default_billing: z.boolean().optional(),
})
export type Address = z.infer<typeof AddressSchema>

/** At most this many addresses per customer. */
export const MAX_ADDRESSES = 20

export const CustomerInputSchema = z.object({
  id: z.number().int().optional(),
  email: EmailSchema,
  firstname: name('firstname'),
  lastname: name('lastname'),
  addresses: z.array(AddressSchema).max(MAX_ADDRESSES, `At most ${MAX_ADDRESSES} addresses`).optional(),
})

export const CreateUserBodySchema = z.object({ customer: CustomerInputSchema, password: PasswordSchema })
export const LoginBodySchema = z.object({
  username: z.string({ error: 'username is required' }).trim().min(1, 'username is required').max(254),
  password: z.string({ error: 'password is required' }).min(1, 'password is required').max(256),
})
export const RefreshBodySchema = z.object({
  refreshToken: z.string({ error: 'refreshToken is required' }).min(1, 'refreshToken is required').max(200),
})
export const ResetPasswordBodySchema = z.object({ email: EmailSchema })
export const CreatePasswordBodySchema = z.object({
  email: EmailSchema,
  newPassword: PasswordSchema,
  resetToken: z.string({ error: 'resetToken is required' }).min(1, 'resetToken is required').max(200),
})
export const ChangePasswordBodySchema = z.object({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    .max(256),
  newPassword: PasswordSchema,
})
export const UpdateMeBodySchema = z.object({
  customer: CustomerInputSchema.extend({
    default_billing: z.union([z.number().int(), z.string()]).nullish(),
    default_shipping: z.union([z.number().int(), z.string()]).nullish(),
  }),
})
export const SocialLoginBodySchema = z.object({
  email: EmailSchema,
  fname: z.string().max(100).optional(),
  lname: z.string().max(100).optional(),
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(8192),
  provider: z.string({ error: 'provider is required' }).min(1).max(40),
})

/** A customer as /api/user/me returns it (no password data, ever). */
export interface Customer {
  id: number
  group_id: number
  default_billing?: string
  default_shipping?: string
  created_at: string
  updated_at: string
  created_in: string
  email: string
  firstname: string
  lastname: string
  store_id: number
  website_id: number
  addresses: (Address & { id: number; customer_id: number })[]
  disable_auto_group_change: number
  groupToken?: string
}
