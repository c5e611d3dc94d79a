// `?raw` imports (Vite) let workerd tests read the text fixtures in tests/fixtures.
declare module '*?raw' {
  const text: string
  export default text
}
