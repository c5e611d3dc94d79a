// The flags of every headless Debian Chromium the tests start (browser tests, screenshots,
// Lighthouse): no GPU, no sandbox (containers), no QUIC, no first-run screens, no background
// network traffic of the browser's own.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
