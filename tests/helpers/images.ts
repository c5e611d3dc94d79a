/** A 120×180 JPEG (a colour gradient), the shape of a Magento product image, for image-route tests. */
export const SAMPLE_JPEG = Uint8Array.from(
  atob(
    '/9j/2wBDAAoHBwgHBgoICAgLCgoLDhgQDg0NDh0VFhEYIx8lJCIfIiEmKzcvJik0KSEiMEExNDk7Pj4+JS5ESUM8SDc9Pjv/2wBDAQoLCw4NDhwQEBw7KCIoOzs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozs7Ozv/wAARCAC0AHgDASIAAhEBAxEB/8QAGQABAQEBAQEAAAAAAAAAAAAAAwQABwEG/8QAFRABAQAAAAAAAAAAAAAAAAAAAAL/xAAYAQEBAQEBAAAAAAAAAAAAAAAEBwMFBv/EABgRAQEBAQEAAAAAAAAAAAAAAAIAASEx/9oADAMBAAIRAxEAPwD4yFEAg8OGjUpzwogEHgZGK54UQCDwOjEc8KIBB4GRiOeFEAg8DoxXPCiAQeB0YjnhRAIPAyMRzwz2GYaextuLQogEKIUBGpDng8AhRA6MVzweAQogZGI54PAIUQOjEc8HgEKIHRiueDwCFEDIxHPB4BCiBkYjnhmhmGnsbbi8HgMHhQUakOeDwGDwMjFc8KIBB4HRiOeFEAg8DIxHPCiAQeB0YrnhRAIPAyMRzwogEHgdGI54Z7DMNPY2+3FoUQCFEKAjUhzQogEKIHRiuaFEAhRAyMRzQogEKIHRiOeDwCFEDIxXPB4BCiB0Yjng8AhRAyMRzwzQzDT2NtxeDwGDwoKNSHPB4DB4GRiueDwGDwOjEc8HgMHgZGI54PAYPA6MRzwogEHgZGK54UQCDwOjEc8M9hh9PY23FoUQCFEKCjUhzQogEKIGRiuaFEAhRA6MRzQogEKIGRiOaFEAhRA6MRzQogEKIHRiuaFEAhRAyMRzwzQzDT2NvtxeDwGDwoCNSHPB4DB4HRiueDwGDwMjEc8HgMHgdGI54PAYPA6MRzweAweBkYrng8Bg8DIxHPDPYZhp7G324tCiAQohQUakOaFEAhRAyMRzQogEKIHRiuaFEAhRAyMRzQogEKIHRiOaFEAhRAyMVzQogEKIHRiOaGewzDT2NtxeDwCFEKAjUhzweAQogdGI54PAYPAyMVzweAweB0Yjng8Bg8DIxHPB4DB4HRiueDwGDwMjEc8M9hmGnsbbi0KIBB4UFGpDnhRAIPAyMRzwogEHgdGK54UQCFEDIxHNCiAQogdGI5oUQCFEDIxXNCiAQogdGI5oZ7DD6ext9uLweAQohQUakOeDwCFEDoxHPB4BCiBkYrng8AhRA6MRzweAQogZGI54PAYPA6MRzweAweBkYrnhnsMw09jbcWhRDM98qkOeFEMw6iueFEMwyiOeFEMw6iOeFEMw6iOeFEMwyiueFEMwyiOeGZmG+xtv/9k=',
  ),
  (ch) => ch.charCodeAt(0),
)

/** CRC-32 of a PNG chunk's type and data (the checksum PNG readers verify). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of bytes) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  }
  return (crc ^ 0xffffffff) >>> 0
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/**
 * A PNG whose header says width × height (8-bit greyscale) with an empty image stream: a few dozen
 * bytes that any reader of the header (the resizer's `info`) takes for an image of that size, as an
 * origin's oversized original would be.
 */
export function pngHeaderOfSize(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13)
  const view = new DataView(ihdr.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  ihdr[8] = 8
  // An empty zlib stream (one final stored block of no bytes).
  const idat = Uint8Array.from([0x78, 0x01, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01])
  const parts = [
    Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', new Uint8Array(0)),
  ]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
