/// CRC-32 (IEEE 802.3, the polynomial zlib and PNG use): the checksum a recording keeps after each frame, so that a
/// damaged byte anywhere in a frame is found, not decoded into a plausible but wrong snapshot.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// The checksum of `bytes` as the four big-endian bytes a recording writes.
    static func bytes(of bytes: some Sequence<UInt8>) -> [UInt8] {
        let crc = checksum(bytes)
        return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
