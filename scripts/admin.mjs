#!/usr/bin/env node
// Back-office operators from the command line (the first owner cannot be created from the back
// office itself):
//   node scripts/admin.mjs create-operator EMAIL [--role owner|staff|viewer] [--remote] [--persist-to DIR]
// The password comes from ADMIN_PASSWORD or is asked for (at least 12 characters); it is hashed
// here with the worker's PBKDF2 format and only the hash reaches D1. Running it again for the same
// e-mail sets the new role and password and re-enables the operator. Behind Cloudflare Access no
// password is needed (ADMIN_PASSWORD= empty with --remote): the Access e-mail is the identity.
import { pbkdf2Sync, randomBytes } from 'node:crypto'
import { createInterface } from 'node:readline/promises'
import { run } from './lib.mjs'

const PBKDF2_ITERATIONS = 100_000
const args = process.argv.slice(2)
const flag = (name) => {
  const i = args.indexOf(name)
  if (i < 0) return undefined
  const v = args[i + 1]
  args.splice(i, 2)
  return v
}
const remote = args.includes('--remote')
if (remote) args.splice(args.indexOf('--remote'), 1)
const persist = flag('--persist-to')
const role = flag('--role') ?? 'owner'
const [command, email] = args
const where = remote ? ['--remote'] : ['--local', ...(persist ? ['--persist-to', persist] : [])]

function usage(message) {
  console.error(
    `${message}\nusage: node scripts/admin.mjs create-operator EMAIL [--role owner|staff|viewer] [--remote] [--persist-to DIR]`,
  )
  process.exit(2)
}

const b64url = (buf) => buf.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** The password hash in the worker's format: pbkdf2-sha256$<iterations>$<salt>$<hash>. */
function hashPassword(password) {
  const salt = randomBytes(16)
  const hash = pbkdf2Sync(password, salt, PBKDF2_ITERATIONS, 32, 'sha256')
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64url(salt)}$${b64url(hash)}`
}

async function readPassword() {
  if (process.env.ADMIN_PASSWORD !== undefined) return process.env.ADMIN_PASSWORD
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  const answer = await rl.question('Password (at least 12 characters): ')
  rl.close()
  return answer
}

if (command !== 'create-operator') usage(`unknown command ${JSON.stringify(command ?? '')}`)
if (!email || !/^[^\s@'"]{1,64}@[^\s@'"]{1,189}$/.test(email)) usage('EMAIL must be an e-mail address')
if (!['owner', 'staff', 'viewer'].includes(role)) usage('--role must be owner, staff or viewer')
const password = await readPassword()
if (password && password.length < 12) usage('the password must have at least 12 characters')
if (!password && !remote) usage('a local operator needs a password (ADMIN_PASSWORD or the prompt)')

const hash = password ? `'${hashPassword(password)}'` : 'NULL'
const created = new Date().toISOString().slice(0, 19).replace('T', ' ')
const sql = `INSERT INTO operators (email, role, password_hash, created_at) VALUES ('${email.toLowerCase()}', '${role}', ${hash}, '${created}')
  ON CONFLICT(email) DO UPDATE SET role = excluded.role, password_hash = excluded.password_hash, disabled_at = NULL;
INSERT INTO admin_audit (actor, action, target, after, created_at) VALUES ('command line', 'operator.create', 'operator:${email.toLowerCase()}', '{"role":"${role}"}', '${created}');`

run('wrangler', ['d1', 'migrations', 'apply', 'DB', ...where])
run('wrangler', ['d1', 'execute', 'DB', ...where, '--command', sql])
console.log(`operator ${email.toLowerCase()} (${role}) is ready: sign in at /admin/login`)
