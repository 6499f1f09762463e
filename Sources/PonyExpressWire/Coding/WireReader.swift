/// Reads the wire's primitives from a range of bytes, checking every bound: malformed input throws, never traps.
struct WireReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.buffer = buffer
        position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }
    var remaining: Int { end - position }

    mutating func byte() throws -> UInt8 {
        guard position < end else { throw WireError.malformed("a value ends early") }
        defer { position += 1 }
        return buffer[position]
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try self.byte()
            if shift == 63, byte > 1 { throw WireError.malformed("a number has more than 64 bits") }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 63 { throw WireError.malformed("a number has more than 64 bits") }
        }
    }

    /// A count or an index: a varint that must fit in `limit`. `what` names it in the error, and is built only then.
    mutating func count(atMost limit: Int, _ what: @autoclosure () -> String) throws -> Int {
        let value = try varint()
        guard limit >= 0, value <= UInt64(limit) else {
            throw WireError.malformed("\(what()) \(value) is out of range 0...\(limit)")
        }
        return Int(value)
    }

    mutating func fixed(_ count: Int) throws -> UInt64 {
        guard remaining >= count else { throw WireError.malformed("a value ends early") }
        var value: UInt64 = 0
        for index in 0..<count {
            value |= UInt64(buffer[position + index]) << (8 * UInt64(index))
        }
        position += count
        return value
    }

    /// A slot's header: `nil` for a nil value, else the range of its bytes, which must lie within this reader.
    mutating func slot() throws -> Range<Int>? {
        let header = try varint()
        if header == 0 { return nil }
        guard header - 1 <= UInt64(remaining) else { throw WireError.malformed("a value is longer than its container") }
        let start = position
        position += Int(header - 1)
        return start..<position
    }
}
