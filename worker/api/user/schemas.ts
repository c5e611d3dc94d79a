/** Request bodies of /api/user beyond the shared schemas: the fields only this backend reads. */

import { LoginBodySchema, UpdateMeBodySchema } from '@shared/schemas/user'
import { z } from 'zod'
import { MAX_TOKEN_LENGTH } from '../auth/tokens'

export const LoginRequestSchema = LoginBodySchema.extend({
  deviceToken: z.string().max(MAX_TOKEN_LENGTH, 'deviceToken is too long').optional(),
})
export const UpdateMeRequestSchema = UpdateMeBodySchema.extend({
  currentPassword: z.string().max(256, 'currentPassword is too long').optional(),
})
