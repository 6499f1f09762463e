import PonyExpress

/// Encodes values in the wire's compact binary form: a table of every string (each once, type names aside), a table
/// of every type identity, then the value itself.
///
/// Each type that crosses the wire has one encoding. The snapshot's rows (see ``WireWriter``) are written by hand,
/// wherever they stand, the root included; every other value (the frames, the snapshot's envelope) through its
/// `Encodable` conformance. Keyed containers carry their keys (interned strings), and every value its length, so that
/// a decoder can skip a key it does not know (a newer minor version) and find a missing optional one absent (an older
/// one). Values are laid out in the order they are encoded; the format is described in the `WireFormat` article
/// of the PonyExpressAgent documentation (`Sources/PonyExpressAgent/PonyExpressAgent.docc/WireFormat.md`).
package enum WireEncoder {
    /// Encodes a value.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its bytes.
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let tables = EncodingTables()
        let root = EncodingNode(kind: .single)
        if !root.appendShortcut(value, tables: tables, slot: false) {
            try value.encode(to: NodeEncoder(node: root, tables: tables, codingPath: []))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(root.measure() + tables.estimatedSize)
        tables.write(into: &bytes)
        root.write(into: &bytes)
        return bytes
    }
}

/// The strings and type identities of one encoded value, each written once and then referred to by index.
///
/// Its state, like ``EncodingNode``'s, is touched by one encoding on one thread: it opts out of the run-time
/// exclusivity checks, which were a tenth of encoding a snapshot.
final class EncodingTables {
    @exclusivity(unchecked) private(set) var strings: [String] = []
    /// Reserved ahead: growing it rehashes every string, long type names included.
    @exclusivity(unchecked) private var stringIndex = [String: Int](minimumCapacity: 256)
    @exclusivity(unchecked) private(set) var types: [(name: Int, qualifiedName: Int)] = []
    @exclusivity(unchecked) private var typeIndex: [TypeIdentity: Int] = [:]
    @exclusivity(unchecked) private(set) var estimatedSize = 16
    /// A small cache in front of ``stringIndex``, placed by a string's raw bits: every container's keys are the same
    /// few literals, whose bits never change, and hashing each one again was a third of encoding a snapshot. A hit
    /// is confirmed by `==`, which compares identical bits first; a string placed elsewhere only misses.
    @exclusivity(unchecked) private var recent = [(string: String, index: Int)?](repeating: nil, count: 256)

    func index(of string: String) -> Int {
        let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
        let mixed = (bits.0 ^ (bits.1 &* 0xff51_afd7_ed55_8ccd)) &* 0x9e37_79b9_7f4a_7c15
        let slot = Int(truncatingIfNeeded: mixed >> 56)
        if let cached = recent[slot], cached.string == string { return cached.index }
        let index = lookUp(string)
        recent[slot] = (string, index)
        return index
    }

    private func lookUp(_ string: String) -> Int {
        if let index = stringIndex[string] { return index }
        let index = append(string)
        stringIndex[string] = index
        return index
    }

    private func append(_ string: String) -> Int {
        strings.append(string)
        estimatedSize += string.utf8.count + 2
        return strings.count - 1
    }

    func index(of type: TypeIdentity) -> Int {
        if let index = typeIndex[type] { return index }
        let index = types.count
        // Long, each asked for once, and nearly always new: appended without a look-up. Hashing every name (and
        // again each time the table grew) was a third of encoding a snapshot of 1,000 generic mail types. A name
        // that is also another type's, or a string elsewhere, is in the table twice, which readers allow.
        types.append((append(type.name), append(type.qualifiedName)))
        typeIndex[type] = index
        return index
    }

    func write(into bytes: inout [UInt8]) {
        WireBytes.appendVarint(UInt64(strings.count), to: &bytes)
        for string in strings {
            WireBytes.appendVarint(UInt64(string.utf8.count), to: &bytes)
            bytes.append(contentsOf: string.utf8)
        }
        WireBytes.appendVarint(UInt64(types.count), to: &bytes)
        for type in types {
            WireBytes.appendVarint(UInt64(type.name), to: &bytes)
            WireBytes.appendVarint(UInt64(type.qualifiedName), to: &bytes)
        }
    }
}

/// One container being encoded: its own bytes, with the nested containers that go between them.
///
/// A slot (a keyed entry's value or an unkeyed element) starts with a header: 0 for nil, else the value's length
/// plus 1. Nested containers are measured and written when the whole value is done, so that their headers are exact.
/// One encoding on one thread owns its nodes, which opt out of the run-time exclusivity checks.
final class EncodingNode {
    enum Kind {
        case single, keyed, unkeyed
    }

    @exclusivity(unchecked) var kind: Kind
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// Nested containers and where in ``bytes`` each goes, header included.
    @exclusivity(unchecked) var children: [(offset: Int, node: EncodingNode)] = []
    /// Entries of a keyed container, elements of an unkeyed one.
    @exclusivity(unchecked) var count = 0
    /// A single value that encoded nil.
    @exclusivity(unchecked) var isNil = false
    @exclusivity(unchecked) private var size = -1

    init(kind: Kind) {
        self.kind = kind
    }

    /// The size of this container's encoding, without the header of the slot it goes in.
    func measure() -> Int {
        if size >= 0 { return size }
        var total = bytes.count
        if kind != .single { total += WireBytes.varintSize(UInt64(count)) }
        for (_, child) in children {
            let childSize = child.measure()
            total += WireBytes.varintSize(child.isNil ? 0 : UInt64(childSize) + 1) + (child.isNil ? 0 : childSize)
        }
        size = total
        return total
    }

    func write(into output: inout [UInt8]) {
        if kind != .single { WireBytes.appendVarint(UInt64(count), to: &output) }
        var start = 0
        for (offset, child) in children {
            output.append(contentsOf: bytes[start..<offset])
            if child.isNil {
                output.append(0)
            } else {
                WireBytes.appendVarint(UInt64(child.measure()) + 1, to: &output)
                child.write(into: &output)
            }
            start = offset
        }
        output.append(contentsOf: bytes[start...])
    }
}
