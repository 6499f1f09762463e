import PonyExpress

/// Decodes what ``WireEncoder`` wrote, each type by its one decoding: the snapshot's rows by hand (see
/// ``WireFields``), wherever they stand, the root included; every other value through its `Decodable` conformance.
/// Malformed or hostile bytes throw ``WireError``; nothing traps, and memory stays within a small multiple of the
/// input's size.
package enum WireDecoder {
    /// Decodes a value.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: What ``WireEncoder/encode(_:)`` wrote.
    /// - Returns: The value.
    /// - Throws: ``WireError/malformed(_:)`` naming what was wrong.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBufferPointer { buffer in
            var reader = WireReader(buffer, from: 0, to: buffer.count)
            let tables = try DecodingTables(&reader)
            let decoder = NodeDecoder(
                buffer: buffer, tables: tables, slot: reader.position..<buffer.count, parentPath: [], key: nil)
            do {
                return try decoder.decode(T.self)
            } catch let error as DecodingError {
                throw WireError.malformed(Self.describe(error))
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "the value" : context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): no field \"\(key.stringValue)\""
        case .valueNotFound(_, let context): return "\(path(context)): missing value"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// The string and type tables at the start of an encoded value.
final class DecodingTables {
    let strings: [String]
    let types: [TypeIdentity]
    /// Field names and their table indices, placed by the names' raw bits (see ``cachedIndex(of:)``).
    @exclusivity(unchecked) private var recent = [(string: String, index: Int)?](repeating: nil, count: 256)
    /// The string-table index of each hand-written type's field names, by ``WireFieldNames/id``, -1 until seen.
    @exclusivity(unchecked) var fieldIndices: [[Int]] = []

    init(_ reader: inout WireReader) throws {
        // Each entry takes at least one byte, so no count can exceed the bytes left.
        let stringCount = try reader.count(atMost: reader.remaining, "the string count")
        var strings: [String] = []
        strings.reserveCapacity(min(stringCount, 1024))
        for _ in 0..<stringCount {
            let length = try reader.varint()
            guard length <= UInt64(reader.remaining) else { throw WireError.malformed("a string ends early") }
            let start = reader.position
            let end = start + Int(length)
            let bytes = UnsafeBufferPointer(rebasing: reader.buffer[start..<end])
            guard let string = String(validating: bytes, as: UTF8.self) else {
                throw WireError.malformed("a string is not valid UTF-8")
            }
            strings.append(string)
            reader.position = end
        }
        let typeCount = try reader.count(atMost: reader.remaining, "the type count")
        var types: [TypeIdentity] = []
        types.reserveCapacity(min(typeCount, 1024))
        for _ in 0..<typeCount {
            let name = try reader.count(atMost: strings.count - 1, "a type's name index")
            let qualifiedName = try reader.count(atMost: strings.count - 1, "a type's name index")
            guard let type = TypeIdentity(name: strings[name], qualifiedName: strings[qualifiedName]) else {
                throw WireError.malformed("too many distinct type names")
            }
            types.append(type)
        }
        self.strings = strings
        self.types = types
    }

    func string(_ reader: inout WireReader) throws -> String {
        strings[try stringIndex(&reader)]
    }

    func stringIndex(_ reader: inout WireReader) throws -> Int {
        try reader.count(atMost: strings.count - 1, "a string index")
    }

    /// The table index last found for `string`, if it is cached: every container's field names are the same few
    /// literals, whose bits never change, so a keyed container finds a field by comparing indices, not names.
    func cachedIndex(of string: String) -> Int? {
        guard let cached = recent[Self.slot(of: string)], cached.string == string else { return nil }
        return cached.index
    }

    func remember(_ string: String, at index: Int) {
        recent[Self.slot(of: string)] = (string, index)
    }

    private static func slot(of string: String) -> Int {
        let bits = unsafeBitCast(string, to: (UInt64, UInt64).self)
        let mixed = (bits.0 ^ (bits.1 &* 0xff51_afd7_ed55_8ccd)) &* 0x9e37_79b9_7f4a_7c15
        return Int(truncatingIfNeeded: mixed >> 56)
    }

    func type(_ reader: inout WireReader) throws -> TypeIdentity {
        types[try reader.count(atMost: types.count - 1, "a type index")]
    }
}
