/** The back office's typed context: the app's variables plus the signed-in operator. */
import type { AppEnv } from '../platform/env'
import type { FormReply } from './pages/components'
import type { Role } from './roles'

export interface Operator {
  id: number | null
  email: string
  role: Role
  /** How the operator proved who they are. */
  via: 'access' | 'session'
  /** The key the CSRF token is bound to (the session, or the Access identity). */
  csrfKey: string
}

export type AdminEnv = {
  Bindings: AppEnv['Bindings']
  Variables: AppEnv['Variables'] & {
    operator: Operator
    csrf: string
    /** A refused form post, re-rendered on the page it came from (./replies.ts). */
    formReply?: FormReply
  }
}
