import PonyExpress
import PonyExpressMonitor

/// The `Decoder` of one slot: a range of the input, or `nil` for a nil value.
struct NodeDecoder: Decoder {
    let buffer: UnsafeBufferPointer<UInt8>
    let tables: DecodingTables
    let slot: Range<Int>?
    /// The path of the container this slot is in; ``codingPath`` adds ``key``. Kept apart so that reading a field
    /// builds no array: a container builds its path once, when it is opened.
    let parentPath: [any CodingKey]
    /// This slot's key in its container, `nil` for the root.
    let key: (any CodingKey)?
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func bytes() throws -> Range<Int> {
        guard let slot else { throw WireError.malformed("\(path): missing value") }
        return slot
    }

    var path: String { codingPath.isEmpty ? "the value" : codingPath.map(\.stringValue).joined(separator: ".") }

    func reader() throws -> WireReader {
        let range = try bytes()
        return WireReader(buffer, from: range.lowerBound, to: range.upperBound)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedNodeDecoder<Key>(self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedNodeDecoder(self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeDecoder(decoder: self)
    }

    /// The decoder of a slot of this one's container, whose path (this decoder's ``codingPath``) is `path`.
    func child(_ slot: Range<Int>?, key: any CodingKey, path: [any CodingKey]) -> NodeDecoder {
        NodeDecoder(buffer: buffer, tables: tables, slot: slot, parentPath: path, key: key)
    }

    // MARK: - Values

    func decodeUnsigned<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws -> T {
        var reader = try reader()
        let value = try reader.varint()
        guard let result = T(exactly: value) else {
            throw WireError.malformed("\(path): \(value) does not fit \(T.self)")
        }
        return result
    }

    func decodeSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type) throws -> T {
        var reader = try reader()
        let value = WireBytes.unzigzag(try reader.varint())
        guard let result = T(exactly: value) else {
            throw WireError.malformed("\(path): \(value) does not fit \(T.self)")
        }
        return result
    }

    func decodeDouble() throws -> Double {
        var reader = try reader()
        return Double(bitPattern: try reader.fixed(8))
    }

    func decodeBool() throws -> Bool {
        var reader = try reader()
        switch try reader.byte() {
        case 0: return false
        case 1: return true
        case let other: throw WireError.malformed("\(path): \(other) is not a Boolean")
        }
    }

    func decodeString() throws -> String {
        var reader = try reader()
        return try tables.string(&reader)
    }

    func decode<T: Decodable>(_: T.Type) throws -> T {
        if let value = try handWritten(T.self) { return value }
        if T.self == TypeIdentity.self {
            var reader = try reader()
            return try tables.type(&reader) as! T
        }
        if T.self == [Double].self {
            var reader = try reader()
            let count = try reader.count(atMost: reader.remaining, "\(path): the element count")
            var doubles: [Double] = []
            doubles.reserveCapacity(min(count, 1024))
            for _ in 0..<count {
                guard let slot = try reader.slot(), slot.count == 8 else {
                    throw WireError.malformed("\(path): an element is not a number")
                }
                var element = WireReader(buffer, from: slot.lowerBound, to: slot.upperBound)
                doubles.append(Double(bitPattern: try element.fixed(8)))
            }
            return doubles as! T
        }
        return try T(from: self)
    }
}

extension NodeDecoder {
    /// The value in this slot by its decoding, if its type is one of the snapshot's rows, whose only wire decoding
    /// is the hand-written one. ``EncodingNode``'s list of their encodings names the same types.
    fileprivate func handWritten<T: Decodable>(_: T.Type) throws -> T? {
        let wire = WireFields(buffer: buffer, tables: tables)
        if T.self == MailTypeStats.self { return try MailTypeStats(wire: wire, slot: slot) as? T }
        if T.self == SiteStats.self { return try SiteStats(wire: wire, slot: slot) as? T }
        if T.self == RecipientStats.self { return try RecipientStats(wire: wire, slot: slot) as? T }
        if T.self == LatencySummary.self { return try LatencySummary(wire: wire, slot: slot) as? T }
        if T.self == RecipientInfo.self { return try RecipientInfo(wire: wire, slot: slot) as? T }
        if T.self == RecipientKind.self { return try RecipientKind(wire: wire, slot: slot) as? T }
        if T.self == SenderFilter.self { return try SenderFilter(wire: wire, slot: slot) as? T }
        if T.self == SourceLocation.self { return try SourceLocation(wire: wire, slot: slot) as? T }
        if T.self == RecipientId.self { return try RecipientId(wire: wire, slot: slot) as? T }
        // Met only inside the rows above today; listed so that no type has a second wire decoding.
        if T.self == RecipientCounts.self { return try RecipientCounts(wire: wire, slot: slot) as? T }
        if T.self == LatencyBucket.self { return try LatencyBucket(wire: wire, slot: slot) as? T }
        if T.self == LifetimeSummary.self { return try LifetimeSummary(wire: wire, slot: slot) as? T }
        if T.self == PostedTypeDeliveries.self { return try PostedTypeDeliveries(wire: wire, slot: slot) as? T }
        if T.self == RelayFigures.self { return try RelayFigures(wire: wire, slot: slot) as? T }
        return nil
    }
}

/// The keyed container of one slot. A class, not a struct: the standard library's container box copies its container
/// on every call, and a copy of a class is one retain.
final class KeyedNodeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let decoder: NodeDecoder
    /// Each field's name, as an index into the string table, and its slot.
    private let entries: [(key: Int, slot: Range<Int>?)]
    let codingPath: [any CodingKey]

    init(_ decoder: NodeDecoder) throws {
        self.decoder = decoder
        codingPath = decoder.codingPath
        var reader = try decoder.reader()
        let count = try reader.count(atMost: reader.remaining, "\(decoder.path): the field count")
        var entries: [(key: Int, slot: Range<Int>?)] = []
        entries.reserveCapacity(min(count, 1024))
        for _ in 0..<count {
            entries.append((try decoder.tables.stringIndex(&reader), try reader.slot()))
        }
        self.entries = entries
    }

    var allKeys: [Key] { entries.compactMap { Key(stringValue: decoder.tables.strings[$0.key]) } }

    /// The field named by `key`: found by the index its name had in an earlier container, else by comparing names.
    private func entry(_ key: Key) -> (key: Int, slot: Range<Int>?)? {
        let name = key.stringValue
        let tables = decoder.tables
        if let index = tables.cachedIndex(of: name), let found = entries.first(where: { $0.key == index }) {
            return found
        }
        guard let found = entries.first(where: { tables.strings[$0.key] == name }) else { return nil }
        tables.remember(name, at: found.key)
        return found
    }

    func contains(_ key: Key) -> Bool { entry(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let entry = entry(key) else {
            throw WireError.malformed("\(decoder.path): no field \"\(key.stringValue)\"")
        }
        return entry.slot == nil
    }

    private func child(_ key: Key) throws -> NodeDecoder {
        guard let entry = entry(key) else {
            throw WireError.malformed("\(decoder.path): no field \"\(key.stringValue)\"")
        }
        return decoder.child(entry.slot, key: key, path: codingPath)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try child(key).decodeDouble()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeSigned(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeSigned(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeSigned(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeSigned(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeSigned(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeUnsigned(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeUnsigned(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeUnsigned(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeUnsigned(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeUnsigned(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try child(Key(stringValue: "super")!) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

struct UnkeyedNodeDecoder: UnkeyedDecodingContainer {
    private let decoder: NodeDecoder
    private var reader: WireReader
    let count: Int?
    private(set) var currentIndex = 0
    let codingPath: [any CodingKey]
    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    init(_ decoder: NodeDecoder) throws {
        self.decoder = decoder
        codingPath = decoder.codingPath
        reader = try decoder.reader()
        count = try reader.count(atMost: reader.remaining, "\(decoder.path): the element count")
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw WireError.malformed("\(decoder.path): fewer elements than its count") }
        let slot = try reader.slot()
        currentIndex += 1
        return decoder.child(slot, key: WireIndexKey(currentIndex - 1), path: codingPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw WireError.malformed("\(decoder.path): fewer elements than its count") }
        guard reader.position < reader.end, reader.buffer[reader.position] == 0 else { return false }
        reader.position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().decodeBool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().decodeString() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().decodeDouble() }
    mutating func decode(_ type: Float.Type) throws -> Float { Float(try next().decodeDouble()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().decodeSigned(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().decodeSigned(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().decodeSigned(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().decodeSigned(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().decodeSigned(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().decodeUnsigned(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().decodeUnsigned(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().decodeUnsigned(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().decodeUnsigned(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().decodeUnsigned(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct SingleNodeDecoder: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.slot == nil }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decoder.decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.decodeDouble()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeSigned(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeSigned(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeSigned(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeSigned(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeSigned(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeUnsigned(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeUnsigned(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeUnsigned(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeUnsigned(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeUnsigned(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
