/**
 * /api/user/*:
 *   POST /create            {customer:{email,firstname,lastname,addresses?}, password} → the submitted
 *                           customer (same answer whether or not the e-mail already had an account;
 *                           an existing owner is mailed instead)
 *   POST /login             {username,password,deviceToken?} → token, meta.refreshToken, meta.deviceToken
 *   POST /social-login      {email,fname,lname,token,provider} → same as login (Google id tokens)
 *   POST /refresh           {refreshToken} → new token, meta.refreshToken (rotated; reuse revokes)
 *   POST /reset-password    {email} → true always (same answer and work for unknown addresses)
 *   POST /create-password   {email,newPassword,resetToken} → true
 *   POST /change-password   {currentPassword,newPassword} → true (400: result.errorMessage)
 *   GET  /me                → customer (+ groupToken)
 *   POST /me                {customer, currentPassword?} → updated customer (address ownership
 *                           enforced; a new e-mail address needs the current password)
 *   GET  /order-history     ?pageSize&currentPage → {items,search_criteria,total_count}
 *   POST /orders/:number/cancel → {status:'canceled'} (own orders, while cancelable; see order-cancel.ts)
 *   POST /addresses         {address, makeDefault?} → {address, saved} (adds one address to the
 *                           caller's book: checkout's "Save this address"; see addresses.ts)
 * The customer always comes from the access token (Authorization: Bearer, or ?token=).
 * Every endpoint that hashes or checks a password validates its input and passes the request
 * limits (auth/rate-limit.ts) before any PBKDF2 work.
 */

import {
  ChangePasswordBodySchema,
  CreatePasswordBodySchema,
  CreateUserBodySchema,
  RefreshBodySchema,
  ResetPasswordBodySchema,
  SocialLoginBodySchema,
} from '@shared/schemas/user'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../../platform/env'
import { jsonBody, noStore, ok, query } from '../../platform/http'
import { requireCustomer, signedIn } from '../auth/guard'
import { SaveAddressBodySchema, saveAddress } from './addresses'
import { cancelOwnOrder } from './order-cancel'
import { OrderHistoryQuery, orderHistory } from './order-history'
import { changePassword, createPassword, refusePasswordChange, requestPasswordReset } from './password'
import { updateProfile, withGroupToken } from './profile'
import { register } from './register'
import { LoginRequestSchema, UpdateMeRequestSchema } from './schemas'
import { login, refresh, signIn } from './session'
import { socialLogin } from './social'

const validChangePassword = jsonBody(ChangePasswordBodySchema)

/** A change-password body the schema refuses answers like a refused change (result.errorMessage). */
const changePasswordBody: typeof validChangePassword = async (c, next) => {
  let valid = false
  try {
    return await validChangePassword(c, async () => {
      valid = true
      await next()
    })
  } catch (err) {
    if (!valid && err instanceof HTTPException) return refusePasswordChange(c, err.message)
    throw err
  }
}

export const userRoutes = new Hono<AppEnv>()
userRoutes.use('*', noStore)

userRoutes.post('/create', jsonBody(CreateUserBodySchema), (c) => register(c, c.req.valid('json')))
userRoutes.post('/login', jsonBody(LoginRequestSchema), (c) => login(c, c.req.valid('json')))
userRoutes.post('/social-login', jsonBody(SocialLoginBodySchema), async (c) =>
  signIn(c, await socialLogin(c, c.req.valid('json'))),
)
userRoutes.post('/refresh', jsonBody(RefreshBodySchema), (c) => refresh(c, c.req.valid('json')))

userRoutes.post('/reset-password', jsonBody(ResetPasswordBodySchema), (c) =>
  requestPasswordReset(c, c.req.valid('json')),
)
userRoutes.post('/create-password', jsonBody(CreatePasswordBodySchema), (c) =>
  createPassword(c, c.req.valid('json')),
)
userRoutes.post('/change-password', signedIn, changePasswordBody, (c) =>
  changePassword(c, c.req.valid('json')),
)

userRoutes.get('/me', async (c) => ok(c, await withGroupToken(c, await requireCustomer(c))))
userRoutes.post('/me', signedIn, jsonBody(UpdateMeRequestSchema), (c) =>
  updateProfile(c, c.req.valid('json')),
)

userRoutes.post(
  '/addresses',
  signedIn,
  jsonBody(SaveAddressBodySchema, { what: 'address', maxBytes: 16_384 }),
  (c) => saveAddress(c, c.req.valid('json')),
)

userRoutes.get('/order-history', signedIn, query(OrderHistoryQuery), (c) =>
  orderHistory(c, c.req.valid('query')),
)
userRoutes.post('/orders/:number/cancel', signedIn, (c) =>
  cancelOwnOrder(c, c.req.param('number').slice(0, 40)),
)
