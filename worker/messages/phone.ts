/**
 * Phone numbers as WhatsApp addresses them: E.164 digits without '+'. The shop sells to India
 * first, so a 10-digit Indian mobile number (starting 6–9), with or without 0, +91 or 91 in front
 * and with spaces or dashes, becomes 91XXXXXXXXXX; anything else is not a number we message.
 */
export function whatsappNumber(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length > 40) return null
  const digits = raw.replace(/[\s().-]/g, '')
  if (!/^\+?\d+$/.test(digits)) return null
  const bare = digits.replace(/^\+/, '')
  const national =
    bare.length === 12 && bare.startsWith('91') ? bare.slice(2) : bare.replace(/^0(?=\d{10}$)/, '')
  return /^[6-9]\d{9}$/.test(national) ? `91${national}` : null
}
