#!/usr/bin/env node
// Generates the PWA icons in public/icons/ (committed): an "O" ring monogram on the brand colour,
// as PNG (192, 512, maskable 512) and SVG. Pure Node (zlib) — no image tools needed.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { parseArgs } from './lib.mjs'

parseArgs(
  `
usage: node scripts/generate-icons.mjs

Regenerates the PWA icons in public/icons/ (PNG 192, 512, maskable 512, and SVG).
  -h, --help   print this help and do nothing else
`,
  { positionals: 0 },
)
const out = path.resolve(import.meta.dirname, '../public/icons')
const BG = [0x1d, 0x1a, 0x17]
const RING = [0xe8, 0xc9, 0x9b]

function crc32(buf) {
  let c
  const table = []
  for (let n = 0; n < 256; n++) {
    c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  let crc = 0xffffffff
  for (const b of buf) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}

/** A size×size RGB PNG: background, anti-aliased ring of the given radii (fractions of size). */
function png(size, inner, outer) {
  const raw = Buffer.alloc((size * 3 + 1) * size)
  const c = size / 2
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0
    for (let x = 0; x < size; x++) {
      // 4× supersampling for smooth edges
      let hit = 0
      for (let sy = 0; sy < 2; sy++)
        for (let sx = 0; sx < 2; sx++) {
          const d = Math.hypot(x + (sx + 0.5) / 2 - c, y + (sy + 0.5) / 2 - c) / size
          if (d >= inner && d <= outer) hit++
        }
      const a = hit / 4
      const o = y * (size * 3 + 1) + 1 + x * 3
      for (let i = 0; i < 3; i++) raw[o + i] = Math.round(BG[i] * (1 - a) + RING[i] * a)
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

writeFileSync(path.join(out, 'icon-192.png'), png(192, 0.2, 0.3))
writeFileSync(path.join(out, 'icon-512.png'), png(512, 0.2, 0.3))
// Maskable: the ring stays well inside the 80 % safe zone.
writeFileSync(path.join(out, 'icon-maskable-512.png'), png(512, 0.14, 0.22))
writeFileSync(path.join(out, 'apple-touch-icon.png'), png(180, 0.2, 0.3))
writeFileSync(
  path.join(out, 'icon.svg'),
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1d1a17"/><circle cx="32" cy="32" r="16" fill="none" stroke="#e8c99b" stroke-width="6.4"/></svg>\n`,
)
// favicon.ico: one 32×32 PNG inside an ICO container (valid since Windows Vista / every browser).
const fav = png(32, 0.2, 0.32)
const ico = Buffer.alloc(22)
ico.writeUInt16LE(0, 0)
ico.writeUInt16LE(1, 2)
ico.writeUInt16LE(1, 4)
ico[6] = 32
ico[7] = 32
ico.writeUInt16LE(1, 10)
ico.writeUInt16LE(32, 12)
ico.writeUInt32LE(fav.length, 14)
ico.writeUInt32LE(22, 18)
writeFileSync(path.join(out, '../favicon.ico'), Buffer.concat([ico, fav]))
console.log('icons written to public/icons/ and public/favicon.ico')
