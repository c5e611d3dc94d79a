/**
 * Running the shop: the outboxes (retry a failed mail or event), purging cached pages, URL
 * redirects, the operators and their roles, and the audit log of every change.
 */
import type { Context } from 'hono'
import type { AuditRow } from '../audit'
import type { AdminEnv } from '../env'
import type { OperatorRow } from '../operators'
import { ROLES } from '../roles'
import { Choice, Field, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

interface FailedRow {
  id: number
  subject?: string
  event_name?: string
  status: string
  provider_response: string | null
}

export function operationsPage(
  c: Context<AdminEnv>,
  view: { outbox: Record<string, { box: string; counts: Record<string, number>; failed: unknown[] }> },
) {
  const back = '/admin/operations'
  return renderAdmin(
    c,
    'Operations',
    <>
      {Object.entries(view.outbox).map(([name, box]) => (
        <section key={name} className="card">
          <h2>{name} outbox</h2>
          <p>
            {Object.entries(box.counts)
              .map(([s, n]) => `${s}: ${n}`)
              .join(' · ') || 'empty'}
          </p>
          <ul>
            {(box.failed as FailedRow[]).map((r) => (
              <li key={r.id}>
                #{r.id} {r.subject ?? r.event_name ?? ''} — {r.status} ({r.provider_response ?? ''})
                <PostForm
                  needs="operations"
                  action={`/admin/api/outbox/${box.box}/${r.id}/retry`}
                  back={back}
                  label="Retry"
                  buttonLabel={`Retry ${name} ${r.id}`}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
      <section className="card">
        <h2>Purge cached pages</h2>
        <PostForm needs="operations" action="/admin/api/cache/purge" back={back} label="Purge">
          <Field
            label="Tags (comma-separated): home, search, P and a product's SKU (PSAR1001), C and a category's id (C12)"
            name="tags"
            required
          />
        </PostForm>
      </section>
      <section className="card">
        <h2>URL redirect</h2>
        <PostForm needs="operations" action="/admin/api/urls/form" back={back} label="Save redirect">
          <Field label="Old path" name="path" required />
          <Field label="Redirect to" name="to" required placeholder="/c/sale" />
        </PostForm>
      </section>
    </>,
  )
}

export function operatorsPage(c: Context<AdminEnv>, operators: OperatorRow[]) {
  const back = '/admin/operators'
  const me = c.var.operator.email.toLowerCase()
  return renderAdmin(
    c,
    'Operators',
    <>
      <Table
        rows={operators}
        rowKey={(o) => o.id}
        columns={[
          { header: 'E-mail', cell: (o) => o.email },
          { header: 'Role', cell: (o) => o.role },
          {
            header: 'State',
            cell: (o) => (
              <>
                {o.disabled_at ? `disabled since ${when(o.disabled_at)}` : 'active'}
                {o.local_sign_in ? '' : ' (Access only)'}
              </>
            ),
          },
          { header: 'Since', cell: (o) => when(o.created_at) },
          {
            header: <span className="skip">Change</span>,
            cell: (o) =>
              o.email.toLowerCase() === me ? (
                'you'
              ) : (
                <>
                  <PostForm
                    needs="operators"
                    action={`/admin/api/operators/${o.id}`}
                    back={back}
                    label="Change role"
                    buttonLabel={`Change role of ${o.email}`}
                  >
                    <Choice
                      label={<>Role of {o.email}</>}
                      name="role"
                      defaultValue={o.role}
                      options={ROLES}
                    />
                  </PostForm>
                  <PostForm
                    needs="operators"
                    action={`/admin/api/operators/${o.id}`}
                    back={back}
                    label={o.disabled_at ? 'Enable' : 'Disable'}
                    buttonLabel={`${o.disabled_at ? 'Enable' : 'Disable'} ${o.email}`}
                    danger={!o.disabled_at}
                  >
                    <input type="hidden" name="disabled" value={o.disabled_at ? 'false' : 'true'} />
                  </PostForm>
                </>
              ),
          },
        ]}
      />
      <section className="card">
        <h2>New operator</h2>
        <p>
          Behind Cloudflare Access the e-mail is the identity and no password is needed; the password is only
          for the local sign-in.
        </p>
        <PostForm needs="operators" action="/admin/api/operators" back={back} label="Add operator">
          <Field label="E-mail" type="email" name="email" required />
          <Choice label="Role" name="role" defaultValue="staff" options={ROLES} />
          <Field
            label="Password (12+ characters, optional)"
            type="password"
            name="password"
            autoComplete="new-password"
          />
        </PostForm>
      </section>
    </>,
  )
}

export function auditPage(c: Context<AdminEnv>, rows: AuditRow[]) {
  return renderAdmin(
    c,
    'Audit log',
    <Table
      rows={rows}
      rowKey={(r) => r.id}
      columns={[
        { header: 'When', cell: (r) => when(r.created_at) },
        { header: 'Who', cell: (r) => r.actor },
        { header: 'What', cell: (r) => r.action },
        { header: 'Record', cell: (r) => r.target },
        { header: 'Before', cell: (r) => r.before ?? '' },
        { header: 'After', cell: (r) => r.after ?? '' },
      ]}
    />,
  )
}
