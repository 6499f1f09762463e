import PonyExpress

/// Writes the snapshot's rows, their one wire encoding: keyed containers of interned field names (each type's
/// `WireField`s) and slots, the same containers and slots ``NodeEncoder`` writes for every other value.
///
/// The snapshot's most numerous values (a row per mail type, per site, per recipient) go through it, not through
/// their `Encodable` conformances: the generic encoder pays for a container box, a node and a coding path per nested
/// value, which was most of encoding a snapshot at 1,000 mail types. Their bytes are those the generic encoder wrote
/// for them before (recordings and older viewers read them); a golden test holds them there. A container's slot
/// header and count are written when it is done, so its body is written once, straight into the output.
struct WireWriter {
    var bytes: [UInt8]
    let tables: EncodingTables
    /// Entries written so far in the innermost open container.
    private var entries = 0

    init(bytes: [UInt8], tables: EncodingTables) {
        self.bytes = bytes
        self.tables = tables
    }

    // MARK: - Containers

    /// Writes a keyed or unkeyed container: its slot header (unless `slot` is false, when the parent writes it), its
    /// entry count, then what `body` writes.
    mutating func container(slot: Bool = true, _ body: (inout WireWriter) throws -> Void) rethrows {
        let start = bytes.count
        let reserved = slot ? 2 : 1
        bytes.append(contentsOf: repeatElement(0, count: reserved))
        let outer = entries
        entries = 0
        try body(&self)
        let count = UInt64(entries)
        entries = outer
        let countSize = WireBytes.varintSize(count)
        let size = countSize + bytes.count - start - reserved
        let header = UInt64(size) + 1
        let prefix = (slot ? WireBytes.varintSize(header) : 0) + countSize
        if prefix > reserved {
            bytes.insert(contentsOf: repeatElement(0, count: prefix - reserved), at: start + reserved)
        }
        var position = start
        if slot { Self.putVarint(header, at: &position, in: &bytes) }
        Self.putVarint(count, at: &position, in: &bytes)
    }

    private static func putVarint(_ value: UInt64, at position: inout Int, in bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes[position] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            position += 1
        }
        bytes[position] = UInt8(value)
        position += 1
    }

    /// Starts an entry of a keyed container.
    mutating func key(_ name: String) {
        entries += 1
        WireBytes.appendVarint(UInt64(tables.index(of: name)), to: &bytes)
    }

    /// Starts an element of an unkeyed container.
    mutating func element() {
        entries += 1
    }

    // MARK: - Slots

    mutating func unsigned(_ value: UInt64) {
        WireBytes.appendVarint(UInt64(WireBytes.varintSize(value)) + 1, to: &bytes)
        WireBytes.appendVarint(value, to: &bytes)
    }

    mutating func signed(_ value: Int64) {
        unsigned(WireBytes.zigzag(value))
    }

    mutating func double(_ value: Double) {
        bytes.append(9)
        WireBytes.appendDouble(value, to: &bytes)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(2)
        bytes.append(value ? 1 : 0)
    }

    mutating func string(_ value: String) {
        unsigned(UInt64(tables.index(of: value)))
    }

    mutating func type(_ value: TypeIdentity) {
        unsigned(UInt64(tables.index(of: value)))
    }

    /// An array of doubles, as ``EncodingNode/appendShortcut(_:tables:slot:)`` writes one.
    mutating func doubles(_ values: [Double]) {
        let size = WireBytes.varintSize(UInt64(values.count)) + values.count * 9
        WireBytes.appendVarint(UInt64(size) + 1, to: &bytes)
        WireBytes.appendVarint(UInt64(values.count), to: &bytes)
        for value in values {
            bytes.append(9)
            let bits = value.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
        }
    }
}
