import PonyExpress
import PonyExpressMonitor

/// The `Encoder` that writes one value into an ``EncodingNode``.
struct NodeEncoder: Encoder {
    let node: EncodingNode
    let tables: EncodingTables
    /// The path of the container this value is in; ``codingPath`` adds ``key``. Kept apart so that encoding a
    /// nested value builds no array: only a container opened on it pays for its path.
    let parentPath: [any CodingKey]
    /// This value's key in its container, `nil` for the root or a value that takes its container's place.
    var key: (any CodingKey)?
    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: EncodingNode, tables: EncodingTables, codingPath: [any CodingKey]) {
        self.init(node: node, tables: tables, parentPath: codingPath, key: nil)
    }

    init(node: EncodingNode, tables: EncodingTables, parentPath: [any CodingKey], key: (any CodingKey)?) {
        self.node = node
        self.tables = tables
        self.parentPath = parentPath
        self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.kind = .keyed
        return KeyedEncodingContainer(KeyedNodeEncoder<Key>(node: node, tables: tables, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .unkeyed
        return UnkeyedNodeEncoder(node: node, tables: tables, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeEncoder(node: node, tables: tables, codingPath: codingPath)
    }
}

/// What the three containers share: how one value is written after its slot's header (or with none, for a single
/// value, whose slot header its parent writes).
extension EncodingNode {
    /// Appends a slot header and a value of known size.
    func appendSlot(size: Int, _ write: (inout [UInt8]) -> Void) {
        WireBytes.appendVarint(UInt64(size) + 1, to: &bytes)
        write(&bytes)
    }

    func appendUnsigned(_ value: UInt64, slot: Bool) {
        if slot { WireBytes.appendVarint(UInt64(WireBytes.varintSize(value)) + 1, to: &bytes) }
        WireBytes.appendVarint(value, to: &bytes)
    }

    func appendSigned(_ value: Int64, slot: Bool) {
        appendUnsigned(WireBytes.zigzag(value), slot: slot)
    }

    func appendDouble(_ value: Double, slot: Bool) {
        if slot { bytes.append(9) }
        WireBytes.appendDouble(value, to: &bytes)
    }

    func appendBool(_ value: Bool, slot: Bool) {
        if slot { bytes.append(2) }
        bytes.append(value ? 1 : 0)
    }

    /// Values the wire writes without the generic machinery: the snapshot's rows by their one encoding, the
    /// hand-written one (see ``WireWriter``), type identities as an index into the type table, and arrays of doubles
    /// (histories) in one go. Returns false for every other value, which its `Encodable` conformance writes.
    ///
    /// Each check compares a generic parameter with a concrete type, which the specializer folds away.
    func appendShortcut<T: Encodable>(_ value: T, tables: EncodingTables, slot: Bool) -> Bool {
        if let write = Self.handWritten(value) {
            var writer = WireWriter(bytes: [], tables: tables)
            swap(&writer.bytes, &bytes)
            defer { swap(&writer.bytes, &bytes) }
            write(&writer, slot)
            return true
        }
        if T.self == TypeIdentity.self {
            appendUnsigned(UInt64(tables.index(of: value as! TypeIdentity)), slot: slot)
            return true
        }
        if T.self == [Double].self {
            let doubles = value as! [Double]
            let size = WireBytes.varintSize(UInt64(doubles.count)) + doubles.count * 9
            if slot { WireBytes.appendVarint(UInt64(size) + 1, to: &bytes) }
            WireBytes.appendVarint(UInt64(doubles.count), to: &bytes)
            for double in doubles { appendDouble(double, slot: true) }
            return true
        }
        return false
    }

    /// The wire encoding of `value`, if its type is one of the snapshot's rows, whose only wire encoding is the
    /// hand-written one. ``NodeDecoder``'s list of their decodings names the same types.
    private static func handWritten<T: Encodable>(_ value: T) -> ((inout WireWriter, Bool) -> Void)? {
        if T.self == MailTypeStats.self {
            return { (value as! MailTypeStats).write(to: &$0, slot: $1) }
        }
        if T.self == SiteStats.self {
            return { (value as! SiteStats).write(to: &$0, slot: $1) }
        }
        if T.self == RecipientStats.self {
            return { (value as! RecipientStats).write(to: &$0, slot: $1) }
        }
        if T.self == LatencySummary.self {
            return { (value as! LatencySummary).write(to: &$0, slot: $1) }
        }
        if T.self == RecipientInfo.self {
            return { (value as! RecipientInfo).write(to: &$0, slot: $1) }
        }
        if T.self == RecipientKind.self {
            return { (value as! RecipientKind).write(to: &$0, slot: $1) }
        }
        if T.self == SenderFilter.self {
            return { (value as! SenderFilter).write(to: &$0, slot: $1) }
        }
        if T.self == SourceLocation.self {
            return { (value as! SourceLocation).write(to: &$0, slot: $1) }
        }
        if T.self == RecipientId.self {
            return { (value as! RecipientId).write(to: &$0, slot: $1) }
        }
        // Met only inside the rows above today; listed so that no type has a second wire encoding.
        if T.self == RecipientCounts.self {
            return { (value as! RecipientCounts).write(to: &$0, slot: $1) }
        }
        if T.self == LatencyBucket.self {
            return { (value as! LatencyBucket).write(to: &$0, slot: $1) }
        }
        if T.self == LifetimeSummary.self {
            return { (value as! LifetimeSummary).write(to: &$0, slot: $1) }
        }
        if T.self == PostedTypeDeliveries.self {
            return { (value as! PostedTypeDeliveries).write(to: &$0, slot: $1) }
        }
        if T.self == RelayFigures.self {
            return { (value as! RelayFigures).write(to: &$0, slot: $1) }
        }
        return nil
    }

    /// Encodes any other value as a nested container that goes here.
    func appendChild<T: Encodable>(
        _ value: T, tables: EncodingTables, parentPath: [any CodingKey], key: any CodingKey
    ) throws {
        let child = EncodingNode(kind: .single)
        children.append((bytes.count, child))
        try value.encode(to: NodeEncoder(node: child, tables: tables, parentPath: parentPath, key: key))
    }
}

/// The keyed container of one value. A class, not a struct: the standard library's container box copies its
/// container on every call, and a copy of a class is one retain.
final class KeyedNodeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let tables: EncodingTables
    let codingPath: [any CodingKey]

    init(node: EncodingNode, tables: EncodingTables, codingPath: [any CodingKey]) {
        self.node = node
        self.tables = tables
        self.codingPath = codingPath
    }

    private func key(_ key: Key) {
        node.count += 1
        WireBytes.appendVarint(UInt64(tables.index(of: key.stringValue)), to: &node.bytes)
    }

    func encodeNil(forKey key: Key) throws {
        self.key(key)
        node.bytes.append(0)
    }

    func encode(_ value: Bool, forKey key: Key) throws {
        self.key(key)
        node.appendBool(value, slot: true)
    }

    func encode(_ value: String, forKey key: Key) throws {
        self.key(key)
        node.appendUnsigned(UInt64(tables.index(of: value)), slot: true)
    }

    func encode(_ value: Double, forKey key: Key) throws {
        self.key(key)
        node.appendDouble(value, slot: true)
    }

    func encode(_ value: Float, forKey key: Key) throws {
        self.key(key)
        node.appendDouble(Double(value), slot: true)
    }

    func encode(_ value: Int, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    func encode(_ value: Int8, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    func encode(_ value: Int16, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    func encode(_ value: Int32, forKey key: Key) throws { try encodeSigned(Int64(value), key) }
    func encode(_ value: Int64, forKey key: Key) throws { try encodeSigned(value, key) }
    func encode(_ value: UInt, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    func encode(_ value: UInt8, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    func encode(_ value: UInt16, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    func encode(_ value: UInt32, forKey key: Key) throws { try encodeUnsigned(UInt64(value), key) }
    func encode(_ value: UInt64, forKey key: Key) throws { try encodeUnsigned(value, key) }

    private func encodeSigned(_ value: Int64, _ key: Key) throws {
        self.key(key)
        node.appendSigned(value, slot: true)
    }

    private func encodeUnsigned(_ value: UInt64, _ key: Key) throws {
        self.key(key)
        node.appendUnsigned(value, slot: true)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        self.key(key)
        if node.appendShortcut(value, tables: tables, slot: true) { return }
        try node.appendChild(value, tables: tables, parentPath: codingPath, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        self.key(key)
        let child = EncodingNode(kind: .keyed)
        node.children.append((node.bytes.count, child))
        return KeyedEncodingContainer(
            KeyedNodeEncoder<NestedKey>(node: child, tables: tables, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        self.key(key)
        let child = EncodingNode(kind: .unkeyed)
        node.children.append((node.bytes.count, child))
        return UnkeyedNodeEncoder(node: child, tables: tables, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder {
        superEncoder(forKey: Key(stringValue: "super")!)
    }

    func superEncoder(forKey key: Key) -> any Encoder {
        self.key(key)
        let child = EncodingNode(kind: .single)
        node.children.append((node.bytes.count, child))
        return NodeEncoder(node: child, tables: tables, codingPath: codingPath + [key])
    }
}

struct UnkeyedNodeEncoder: UnkeyedEncodingContainer {
    let node: EncodingNode
    let tables: EncodingTables
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func element() {
        node.count += 1
    }

    mutating func encodeNil() throws {
        element()
        node.bytes.append(0)
    }

    mutating func encode(_ value: Bool) throws {
        element()
        node.appendBool(value, slot: true)
    }

    mutating func encode(_ value: String) throws {
        element()
        node.appendUnsigned(UInt64(tables.index(of: value)), slot: true)
    }

    mutating func encode(_ value: Double) throws {
        element()
        node.appendDouble(value, slot: true)
    }

    mutating func encode(_ value: Float) throws {
        element()
        node.appendDouble(Double(value), slot: true)
    }

    mutating func encode(_ value: Int) throws { try encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int8) throws { try encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int16) throws { try encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int32) throws { try encodeSigned(Int64(value)) }
    mutating func encode(_ value: Int64) throws { try encodeSigned(value) }
    mutating func encode(_ value: UInt) throws { try encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { try encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { try encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { try encodeUnsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { try encodeUnsigned(value) }

    private func encodeSigned(_ value: Int64) throws {
        element()
        node.appendSigned(value, slot: true)
    }

    private func encodeUnsigned(_ value: UInt64) throws {
        element()
        node.appendUnsigned(value, slot: true)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        element()
        if node.appendShortcut(value, tables: tables, slot: true) { return }
        try node.appendChild(value, tables: tables, parentPath: codingPath, key: WireIndexKey(node.count - 1))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        element()
        let child = EncodingNode(kind: .keyed)
        node.children.append((node.bytes.count, child))
        return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, tables: tables, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        element()
        let child = EncodingNode(kind: .unkeyed)
        node.children.append((node.bytes.count, child))
        return UnkeyedNodeEncoder(node: child, tables: tables, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        element()
        let child = EncodingNode(kind: .single)
        node.children.append((node.bytes.count, child))
        return NodeEncoder(node: child, tables: tables, codingPath: codingPath)
    }
}

struct SingleNodeEncoder: SingleValueEncodingContainer {
    let node: EncodingNode
    let tables: EncodingTables
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.isNil = true }
    mutating func encode(_ value: Bool) throws { node.appendBool(value, slot: false) }
    mutating func encode(_ value: String) throws {
        node.appendUnsigned(UInt64(tables.index(of: value)), slot: false)
    }
    mutating func encode(_ value: Double) throws { node.appendDouble(value, slot: false) }
    mutating func encode(_ value: Float) throws { node.appendDouble(Double(value), slot: false) }
    mutating func encode(_ value: Int) throws { node.appendSigned(Int64(value), slot: false) }
    mutating func encode(_ value: Int8) throws { node.appendSigned(Int64(value), slot: false) }
    mutating func encode(_ value: Int16) throws { node.appendSigned(Int64(value), slot: false) }
    mutating func encode(_ value: Int32) throws { node.appendSigned(Int64(value), slot: false) }
    mutating func encode(_ value: Int64) throws { node.appendSigned(value, slot: false) }
    mutating func encode(_ value: UInt) throws { node.appendUnsigned(UInt64(value), slot: false) }
    mutating func encode(_ value: UInt8) throws { node.appendUnsigned(UInt64(value), slot: false) }
    mutating func encode(_ value: UInt16) throws { node.appendUnsigned(UInt64(value), slot: false) }
    mutating func encode(_ value: UInt32) throws { node.appendUnsigned(UInt64(value), slot: false) }
    mutating func encode(_ value: UInt64) throws { node.appendUnsigned(value, slot: false) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if node.appendShortcut(value, tables: tables, slot: false) { return }
        // The value takes this container's place: an optional's wrapped value, a wrapper's contents.
        try value.encode(to: NodeEncoder(node: node, tables: tables, codingPath: codingPath))
    }
}

/// The coding key of an unkeyed container's element, for coding paths in errors.
struct WireIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "[\(intValue ?? 0)]" }

    init(_ index: Int) {
        intValue = index
    }

    init?(stringValue: String) {
        nil
    }

    init?(intValue: Int) {
        self.intValue = intValue
    }
}
