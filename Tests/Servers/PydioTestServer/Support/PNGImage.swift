import Foundation

/// A hand-written PNG encoder (RGB, 8 bits, zlib stored blocks) for the
/// captcha image; no compression library needed.
enum PNGImage {
    /// A `width`×`height` image whose pixel colour comes from `pixel(x, y)`.
    static func encode(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                raw += [r, g, b]
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth 8, RGB, deflate, no filter, no interlace
        png += chunk("IHDR", header)
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// The captcha picture: a pale background with stripes (the word is
    /// known to tests through ``PydioFaults/captchaWord``).
    static let captcha: Data = encode(width: 170, height: 80) { x, y in
        ((x / 10 + y / 10) % 2 == 0) ? (235, 235, 240) : (200, 210, 225)
    }

    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final: UInt8 = offset + length >= data.count ? 1 : 0
            out.append(final)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    private static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + payload
        return bigEndian(UInt32(payload.count)) + body + bigEndian(crc32(body))
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
