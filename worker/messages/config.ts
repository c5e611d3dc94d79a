/**
 * The WhatsApp Business Cloud API's configuration: the Graph API base and version (vars
 * WHATSAPP_API_BASE, WHATSAPP_API_VERSION), and the secrets WHATSAPP_ACCESS_TOKEN (a system
 * user's token), WHATSAPP_PHONE_NUMBER_ID (the sending number), WHATSAPP_APP_SECRET (signs the
 * webhooks) and WHATSAPP_VERIFY_TOKEN (the webhook's verification handshake). Without the token
 * and the phone number id no WhatsApp message is sent (mail still is).
 */

export interface WhatsAppConfig {
  base: string
  version: string
  accessToken: string
  phoneNumberId: string
  appSecret: string | null
  verifyToken: string | null
}

type WhatsAppEnv = Env & Record<string, string | undefined>

export function whatsappConfig(env: Env): WhatsAppConfig | null {
  const e = env as WhatsAppEnv
  if (!e.WHATSAPP_ACCESS_TOKEN || !e.WHATSAPP_PHONE_NUMBER_ID) return null
  return {
    base: (e.WHATSAPP_API_BASE?.trim() || 'https://graph.facebook.com').replace(/\/+$/, ''),
    version: e.WHATSAPP_API_VERSION?.trim() || 'v21.0',
    accessToken: e.WHATSAPP_ACCESS_TOKEN,
    phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
    appSecret: e.WHATSAPP_APP_SECRET || null,
    verifyToken: e.WHATSAPP_VERIFY_TOKEN || null,
  }
}

/** The webhook's secrets alone (they may be set while sending is not). */
export function whatsappWebhookSecrets(env: Env): { appSecret: string | null; verifyToken: string | null } {
  const e = env as WhatsAppEnv
  return { appSecret: e.WHATSAPP_APP_SECRET || null, verifyToken: e.WHATSAPP_VERIFY_TOKEN || null }
}
