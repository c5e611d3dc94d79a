// Secrets are not in wrangler.toml (set with `wrangler secret put NAME`, locally in .dev.vars),
// so `wrangler types` cannot see them; they are declared here, all optional: an integration whose
// secret is missing falls back to its D1 outbox (secrets are optional).
interface __Secrets {
  /** HMAC key for access tokens. Required in production; dev/test generate one. */
  TOKEN_SECRET?: string
  /** Key for GET /invalidate (output cache purge). */
  INVALIDATE_KEY?: string
  MAIL_PROVIDER_URL?: string
  MAIL_PROVIDER_KEY?: string
  MAILCHIMP_API_KEY?: string
  MAILCHIMP_LIST_URL?: string
  FB_PIXEL_ID?: string
  FB_ACCESS_TOKEN?: string
  /** Razorpay API key pair (Dashboard → API Keys); without them card/UPI/netbanking is off. */
  RAZORPAY_KEY_ID?: string
  RAZORPAY_KEY_SECRET?: string
  /** The secret entered for this shop's webhook in the Razorpay Dashboard. */
  RAZORPAY_WEBHOOK_SECRET?: string
  /** PayPal REST app credentials; without them PayPal is off. */
  PAYPAL_CLIENT_ID?: string
  PAYPAL_CLIENT_SECRET?: string
  /** The id PayPal gave this shop's webhook (used to verify deliveries). */
  PAYPAL_WEBHOOK_ID?: string
  SOCIAL_LOGIN_GOOGLE_CLIENT_ID?: string
  /** The courier's API user (Shiprocket: Settings → API); without them there is no courier booking. */
  SHIPROCKET_EMAIL?: string
  SHIPROCKET_PASSWORD?: string
  /** The token entered with this shop's tracking webhook in the courier's panel (x-api-key). */
  SHIPROCKET_WEBHOOK_TOKEN?: string
  /** WhatsApp Cloud API: a system user's token and the sending number's id (docs/messages.md). */
  WHATSAPP_ACCESS_TOKEN?: string
  WHATSAPP_PHONE_NUMBER_ID?: string
  /** The Meta app's secret (signs the webhooks) and the webhook's verify token. */
  WHATSAPP_APP_SECRET?: string
  WHATSAPP_VERIFY_TOKEN?: string
}
declare namespace Cloudflare {
  interface Env extends __Secrets {}
}
interface Env extends __Secrets {}
