import { afterEach, describe, expect, it, vi } from 'vitest'
import { sendContactMessage } from '../../../../../client/islands/content/contact-form'
import { jsonResponse as json, stubFetch } from '../../../../helpers/browser-fakes'

const input = {
  name: 'Asha',
  email: 'asha@example.com',
  subject: '',
  message: 'Do you ship to Pune?',
  supportEmail: 'care@example.com',
}

afterEach(() => vi.unstubAllGlobals())

describe('contact form → mail service', () => {
  it('gets a token, then posts send-email to the support address with the spec payload', async () => {
    const calls = stubFetch((url) =>
      url.includes('get-token') ? json({ code: 200, result: 'tok-1' }) : json({ code: 200, result: 'sent' }),
    )
    await expect(sendContactMessage(input)).resolves.toBe('sent')
    expect(calls[0]?.url).toBe('/api/ext/mail-service/get-token')
    expect(calls[1]?.url).toBe('/api/ext/mail-service/send-email')
    expect(JSON.parse(String(calls[1]?.init.body))).toEqual({
      sourceAddress: 'asha@example.com',
      targetAddress: 'care@example.com',
      subject: 'Message from Asha',
      emailText: 'From: Asha <asha@example.com>\n\nDo you ship to Pune?',
      token: 'tok-1',
    })
  })

  it("rejects with the server's message so the form can offer the mailto fallback", async () => {
    stubFetch((url) =>
      url.includes('get-token')
        ? json({ code: 200, result: 'tok-1' })
        : json({ code: 502, result: 'The mail provider did not accept the message.' }, 502),
    )
    await expect(sendContactMessage(input)).rejects.toThrow('The mail provider did not accept the message.')
  })
})
