/** One lucide-static icon module: its default export is the icon's SVG markup. */
declare module 'lucide-static/dist/esm/icons/*.mjs' {
  const svg: string
  export default svg
}
