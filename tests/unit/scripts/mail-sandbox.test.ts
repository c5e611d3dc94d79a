// The local mail stand-in answers like Resend's send API (key, fields, idempotency) and its TEST
// page shows what each address received, the HTML in a sandbox where no script runs.
import { describe, expect, it } from 'vitest'
import { createMailSandbox, MAIL_SANDBOX_KEY, mailSandboxVars } from '../../../scripts/mail-sandbox/sandbox'

const ORIGIN = 'http://127.0.0.1:9587'

function send(
  sandbox: ReturnType<typeof createMailSandbox>,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return sandbox.fetch(
    new Request(`${ORIGIN}/emails`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${MAIL_SANDBOX_KEY}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: JSON.stringify(body),
    }),
  )
}

const mail = {
  from: 'care@ode.example',
  to: 'meera@example.com',
  subject: 'Your order',
  text: 'Hi',
  html: '<p>Hi<script>parent.x=1</script></p>',
}

describe('mail stand-in', () => {
  it('points the shop at itself', () => {
    expect(mailSandboxVars(ORIGIN)).toEqual({
      MAIL_PROVIDER_URL: `${ORIGIN}/emails`,
      MAIL_PROVIDER_KEY: MAIL_SANDBOX_KEY,
    })
  })

  it('refuses a missing or wrong key and a mail without its fields, in Resend’s shapes', async () => {
    const sandbox = createMailSandbox()
    const noKey = await sandbox.fetch(
      new Request(`${ORIGIN}/emails`, { method: 'POST', body: JSON.stringify(mail) }),
    )
    expect(noKey.status).toBe(401)
    expect(await noKey.json()).toMatchObject({ statusCode: 401, name: 'missing_api_key' })
    const wrong = await send(sandbox, mail, { authorization: 'Bearer re_other' })
    expect(wrong.status).toBe(403)
    expect((await send(sandbox, { ...mail, subject: undefined })).status).toBe(422)
    expect(await (await send(sandbox, { ...mail, text: undefined, html: undefined })).json()).toMatchObject({
      name: 'missing_required_field',
    })
    expect(await (await send(sandbox, { ...mail, to: 'not an address' })).json()).toMatchObject({
      statusCode: 400,
      name: 'validation_error',
    })
    expect(sandbox.inbox('meera@example.com')).toEqual([])
  })

  it('sends once per Idempotency-Key and refuses the key with another body', async () => {
    const sandbox = createMailSandbox()
    const first = (await (await send(sandbox, mail, { 'idempotency-key': 'mail/test/1' })).json()) as {
      id: string
    }
    const again = (await (await send(sandbox, mail, { 'idempotency-key': 'mail/test/1' })).json()) as {
      id: string
    }
    expect(again.id).toBe(first.id)
    expect(
      (await send(sandbox, { ...mail, subject: 'Other' }, { 'idempotency-key': 'mail/test/1' })).status,
    ).toBe(409)
    expect(sandbox.inbox('MEERA@example.com')).toHaveLength(1)
  })

  it('lists each address’s mails on the TEST page and shows the HTML with no script allowed', async () => {
    const sandbox = createMailSandbox()
    const { id } = (await (await send(sandbox, { ...mail, subject: '<b>Order</b>' })).json()) as {
      id: string
    }
    const list = await (await sandbox.fetch(new Request(`${ORIGIN}/test`))).text()
    expect(list).toContain('TEST MODE')
    expect(list).toContain('meera@example.com')
    expect(list).toContain(`<a href="/test/mail/${id}">&lt;b&gt;Order&lt;/b&gt;</a>`)
    const shown = await (await sandbox.fetch(new Request(`${ORIGIN}/test/mail/${id}`))).text()
    expect(shown).toContain(`<iframe title="HTML part" sandbox src="/test/mail/${id}/html">`)
    const html = await sandbox.fetch(new Request(`${ORIGIN}/test/mail/${id}/html`))
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/)
    expect(await html.text()).toBe(mail.html)
  })
})
