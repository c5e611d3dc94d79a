/**
 * The back office's settings, read from the worker's vars: Access is on when both the team
 * domain and the application's audience tag are set (then the local sign-in is off).
 */
import { z } from 'zod'
import type { AccessSettings } from './access'

const AdminVars = z.object({
  ACCESS_TEAM_DOMAIN: z.string().trim().optional(),
  ACCESS_AUD: z.string().trim().optional(),
})

/** Access settings when Access protects /admin, else null (the local operator sign-in applies). */
export function accessSettings(env: object): AccessSettings | null {
  const vars = AdminVars.safeParse(env)
  if (!vars.success) return null
  const { ACCESS_TEAM_DOMAIN: teamDomain, ACCESS_AUD: audience } = vars.data
  return teamDomain && audience ? { teamDomain, audience } : null
}
