/// The wire's primitive encodings: unsigned LEB128 varints, zigzag for signed integers, little-endian IEEE 754.
enum WireBytes {
    static func varintSize(_ value: UInt64) -> Int {
        var value = value
        var size = 1
        while value >= 0x80 {
            value >>= 7
            size += 1
        }
        return size
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }

    static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        appendFixed(value.bitPattern, count: 8, to: &bytes)
    }

    static func appendFixed(_ value: UInt64, count: Int, to bytes: inout [UInt8]) {
        for shift in 0..<count {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))))
        }
    }
}
