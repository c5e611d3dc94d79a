#!/usr/bin/env node
// Back-office operators from the command line (the first owner cannot be created from the back
// office itself). The password comes from ADMIN_PASSWORD or is asked for (at least 12
// characters); it is hashed with the worker's own password function and only the hash reaches D1.
// Running it again for the same e-mail sets the new role and password and re-enables the operator.
// Behind Cloudflare Access no password is needed (ADMIN_PASSWORD= empty with --env): the Access
// e-mail is the identity.
import { createInterface } from 'node:readline/promises'
import { confirm, die, importTs, run, shopCommandLine, WHERE_HELP } from './lib.mjs'

const HELP = `
usage: node scripts/admin.mjs create-operator EMAIL [options]

Creates (or updates) a back-office operator: role, password hash, enabled. Applies the D1
migrations first.

options:
  --role ROLE         owner (default), staff or viewer
${WHERE_HELP}

The password is read from ADMIN_PASSWORD, else asked for; with --env it may be empty (Access).
`

const args = shopCommandLine(HELP, { options: ['--role'], positionals: 2 })
const { yes, env, role = 'owner', where, deployed } = args
const [command, email] = args.positionals
if (command !== 'create-operator')
  die(
    `unknown command ${JSON.stringify(command ?? '')}: node scripts/admin.mjs create-operator EMAIL (--help)`,
  )
if (!email || !/^[^\s@'"]{1,64}@[^\s@'"]{1,189}$/.test(email)) die('EMAIL must be an e-mail address')
if (!['owner', 'staff', 'viewer'].includes(role)) die('--role must be owner, staff or viewer')

async function readPassword() {
  if (process.env.ADMIN_PASSWORD !== undefined) return process.env.ADMIN_PASSWORD
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  const answer = await rl.question('Password (at least 12 characters): ')
  rl.close()
  return answer
}

const password = await readPassword()
if (password && password.length < 12) die('the password must have at least 12 characters')
if (!password && !deployed) die('a local operator needs a password (ADMIN_PASSWORD or the prompt)')
if (deployed) await confirm(`make ${email} a ${role} of the DEPLOYED ${env} back office`, { yes })

const { hashPassword } = await importTs('worker/api/auth/crypto.ts')
const hash = password ? `'${await hashPassword(password)}'` : 'NULL'
const address = email.toLowerCase()
const created = new Date().toISOString().slice(0, 19).replace('T', ' ')
const sql = `INSERT INTO operators (email, role, password_hash, created_at) VALUES ('${address}', '${role}', ${hash}, '${created}')
  ON CONFLICT(email) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash, disabled_at = NULL;
INSERT INTO admin_audit (actor, action, target, after, created_at) VALUES ('command line', 'operator.create', 'operator:${address}', '{"role":"${role}"}', '${created}');`

run('wrangler', ['d1', 'migrations', 'apply', 'DB', ...where])
run('wrangler', ['d1', 'execute', 'DB', ...where, '--command', sql])
console.log(`operator ${address} (${role}) is ready: sign in at /admin/login`)
