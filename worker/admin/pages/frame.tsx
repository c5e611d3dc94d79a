/**
 * The back office's page frame, rendered with React on the server like the shop's pages: the
 * document, the navigation and the sign-in form; a layout that fits a phone and is usable with the
 * keyboard (skip link, labels, visible focus). Screens are built from ./components.tsx. Its
 * stylesheet is inline with the request's nonce; nothing here is part of the shop's pages,
 * bundles or CSS.
 */
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import { renderToReadableStream } from 'react-dom/server.node'
import { mailProvider } from '../../api/mail/outbox'
import type { AdminEnv, Operator } from '../env'
import { Csrf, OperatorRole, PostForm, Reply } from './components'

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;background:#f6f6f7}
a{color:#0b57d0}:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}fieldset{border:1px solid #ddd;background:#fff;margin:8px 0;flex-basis:100%;display:flex;flex-wrap:wrap;gap:6px;min-width:0}fieldset input[type=checkbox]{min-height:auto}
header{background:#1d1d1f;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:12px;align-items:center}
header a{color:#fff}nav ul{display:flex;flex-wrap:wrap;gap:12px;list-style:none;margin:0;padding:0}
main{padding:16px;max-width:1100px;margin:auto}table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #ddd;vertical-align:top}
.scroll{overflow-x:auto}form.inline{display:inline-flex;flex-wrap:wrap;gap:6px;align-items:end;margin:4px 0}
label{display:flex;flex-direction:column;font-size:13px}input,select,textarea,button{font:inherit;padding:6px;min-height:40px}
button{cursor:pointer;background:#0b57d0;color:#fff;border:0;border-radius:4px;padding:6px 12px}
button.danger{background:#b3261e}.refused,[role=alert]{color:#b3261e;font-weight:600;flex-basis:100%}.alarm{background:#b3261e;color:#fff;padding:8px 12px;border-radius:4px}.card{background:#fff;padding:12px;margin:12px 0;border-radius:6px}.review-photos{display:flex;gap:8px;list-style:none;padding:0}.review-photos img{object-fit:cover}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:12px}
.who{margin-left:auto;font-size:13px}address{font-style:normal}
.totals{display:grid;grid-template-columns:max-content max-content;gap:0 16px}.totals dd{margin:0;text-align:right}
form.inline,form.inline>*,fieldset>*,input,select,textarea{max-width:100%;min-width:0}.scroll{flex-basis:100%;position:relative}.cms-content img{max-width:100%;height:auto}
@media print{header,.skip,form{display:none}body{background:#fff}main{padding:0}.card{padding:0;margin:0 0 12px}}`

const NAV: readonly (readonly [string, string])[] = [
  ['/admin', 'Dashboard'],
  ['/admin/orders', 'Orders'],
  ['/admin/fulfilment', 'Fulfilment'],
  ['/admin/tax', 'GST reports'],
  ['/admin/reviews', 'Reviews'],
  ['/admin/products', 'Catalogue'],
  ['/admin/customers', 'Customers'],
  ['/admin/coupons', 'Coupons'],
  ['/admin/content', 'Content'],
  ['/admin/mail', 'Mails'],
  ['/admin/home', 'Home page'],
  ['/admin/media', 'Media'],
  ['/admin/rules', 'COD rules'],
  ['/admin/operations', 'Operations'],
  ['/admin/field-data', 'Field data'],
  ['/admin/operators', 'Operators'],
  ['/admin/audit', 'Audit log'],
]

function Frame(props: {
  nonce: string
  title: string
  operator?: Operator
  /** What stops the shop working as the operator expects, on every screen in red. */
  alarms?: readonly string[]
  children: ReactNode
}) {
  const op = props.operator
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex,nofollow" />
        <title>{`${props.title} — Back office`}</title>
        {/* The back office's own constant stylesheet. */}
        <style nonce={props.nonce} dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header>
          <strong>Back office</strong>
          {op ? (
            <>
              <nav aria-label="Back office">
                <ul>
                  {NAV.map(([href, label]) => (
                    <li key={href}>
                      <a href={href}>{label}</a>
                    </li>
                  ))}
                </ul>
              </nav>
              <span className="who">
                {op.email} ({op.role})
                {op.via === 'session' ? (
                  <PostForm action="/admin/logout" back="/admin/login" label="Sign out" needs="read" />
                ) : null}
              </span>
            </>
          ) : null}
        </header>
        <main id="main">
          {op
            ? props.alarms?.map((a) => (
                <p key={a} className="alarm" role="alert">
                  {a}
                </p>
              ))
            : null}
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  )
}

/** A shop without a mail provider sends no mail at all: every screen says so until one is set. */
const MSG_NO_MAIL_PROVIDER =
  'No mail provider is configured: order, refund and account mails are queued and never sent. Set the MAIL_PROVIDER_URL and MAIL_PROVIDER_KEY secrets (docs/operations.md).'

const alarmsOf = (env: Env): string[] => (mailProvider(env) ? [] : [MSG_NO_MAIL_PROVIDER])

/** Renders a back-office page (the whole document, once every part is ready). */
export async function renderAdmin(
  c: Context<AdminEnv>,
  title: string,
  body: ReactNode,
  status: 200 | 400 | 401 | 403 | 404 | 409 | 429 = 200,
): Promise<Response> {
  const operator = c.get('operator') as Operator | undefined
  const stream = await renderToReadableStream(
    <Csrf.Provider value={(c.get('csrf') as string | undefined) ?? ''}>
      <OperatorRole.Provider value={operator?.role ?? null}>
        <Reply.Provider value={c.get('formReply') ?? null}>
          <Frame nonce={c.var.nonce} title={title} operator={operator} alarms={alarmsOf(c.env)}>
            {body}
          </Frame>
        </Reply.Provider>
      </OperatorRole.Provider>
    </Csrf.Provider>,
    {
      onError(error: unknown) {
        console.error(
          JSON.stringify({ requestId: c.var.requestId, msg: 'admin render error', error: String(error) }),
        )
      },
    },
  )
  await stream.allReady
  return c.body(stream, status, { 'content-type': 'text/html; charset=utf-8' })
}

/** The local sign-in form (no operator yet). */
export function loginPage(c: Context<AdminEnv>, message?: string, status?: 400 | 401 | 403 | 429) {
  return renderAdmin(
    c,
    'Operator sign-in',
    <>
      {message ? <p role="alert">{message}</p> : null}
      <form method="post" action="/admin/login">
        <label>
          E-mail <input type="email" name="email" autoComplete="username" required />
        </label>
        <label>
          Password <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </>,
    status,
  )
}
