import PonyExpress

/// The wire's field names of one of the snapshot's row types: its `WireField` enum, the one list of them, in the order
/// they are written.
///
/// They are the names the type's `Codable` conformance gave them when the wire encoded these types through it, and
/// must stay so: recordings and older viewers read them. The wire no longer uses the conformances, nor does any other
/// code of the package but tests; they remain public, for an app's own formats.
///
/// A decoder finds a field by the string-table index of its name, which it learns from the first container that
/// names it: after that, matching an entry is a few integer comparisons, not a string comparison.
struct WireFieldNames<Field: CaseIterable & RawRepresentable & Sendable>: Sendable where Field.RawValue == String {
    /// The list's place in ``DecodingTables``'s caches: each hand-written type has its own.
    let id: Int
    let fields: [Field]
    let names: [String]

    init(id: Int) {
        self.id = id
        fields = Array(Field.allCases)
        names = fields.map(\.rawValue)
    }
}

/// Reads the snapshot's rows as ``WireWriter`` writes them, their one decoding: unknown fields are skipped, a missing
/// optional one is absent, and every bound is checked as ``NodeDecoder`` checks it: malformed input throws
/// ``WireError``, never traps.
struct WireFields {
    let buffer: UnsafeBufferPointer<UInt8>
    let tables: DecodingTables

    /// Calls `body` with the field index and slot of each entry of the keyed container in `slot` whose name is one of
    /// `fields`, in the order they were written; other entries (fields of a newer minor version) are skipped.
    func forEachField<Field>(
        in slot: Range<Int>?, of fields: WireFieldNames<Field>, _ what: StaticString,
        _ body: (Field, Range<Int>?) throws -> Void
    ) throws {
        try forEachEntry(in: slot, what) { name, value in
            if let field = tables.field(named: name, in: fields) { try body(fields.fields[field], value) }
        }
    }

    /// Calls `body` with the string-table index of each entry's name and its slot, for every entry of the keyed
    /// container in `slot`.
    func forEachEntry(in slot: Range<Int>?, _ what: StaticString, _ body: (Int, Range<Int>?) throws -> Void) throws {
        var reader = try self.reader(slot, what)
        let count = try reader.count(atMost: reader.remaining, "\(what): the field count")
        for _ in 0..<count {
            let name = try tables.stringIndex(&reader)
            try body(name, try reader.slot())
        }
    }

    /// The case of an enum in the shape synthesized `Codable` conformances give one: a keyed container with one
    /// entry, named after the case, whose value is a keyed container of the associated values (`_0`, ...). Entries
    /// that name no case are skipped, as `allKeys` skips them.
    func enumCase<Case>(
        in slot: Range<Int>?, of cases: WireFieldNames<Case>, _ what: StaticString
    ) throws -> (Case, payload: Range<Int>?) {
        var found: (Case, payload: Range<Int>?)?
        var count = 0
        try forEachField(in: slot, of: cases, what) { field, payload in
            count += 1
            if found == nil { found = (field, payload) }
        }
        guard count == 1, let found else { throw WireError.malformed("\(what): \(count) cases, expected one") }
        return found
    }

    /// The associated value of an enum case with one, as ``enumCase(in:of:_:)`` found its payload.
    func associatedType(_ payload: Range<Int>?, _ what: StaticString) throws -> TypeIdentity {
        var value: Range<Int>??
        try forEachField(in: payload, of: AssociatedValue.wireFields, what) { _, slot in
            if value == nil { value = .some(slot) }
        }
        guard let value else { throw WireError.malformed("\(what): no field \"_0\"") }
        return try type(value, what)
    }

    /// Reads the payload of an enum case without associated values: an empty keyed container, or one with entries
    /// nobody reads.
    func noAssociatedValue(_ payload: Range<Int>?, _ what: StaticString) throws {
        try forEachEntry(in: payload, what) { _, _ in }
    }

    /// Calls `body` with the slot of each element of the unkeyed container in `slot`; returns the element count
    /// first, through `reserve`, bounded by the container's size.
    func forEachElement(
        in slot: Range<Int>?, _ what: StaticString, reserve: (Int) -> Void = { _ in },
        _ body: (Range<Int>?) throws -> Void
    ) throws {
        var reader = try self.reader(slot, what)
        let count = try reader.count(atMost: reader.remaining, "\(what): the element count")
        reserve(min(count, 1024))
        for _ in 0..<count { try body(try reader.slot()) }
    }

    func reader(_ slot: Range<Int>?, _ what: StaticString) throws -> WireReader {
        guard let slot else { throw WireError.malformed("\(what): missing value") }
        return WireReader(buffer, from: slot.lowerBound, to: slot.upperBound)
    }

    // MARK: - Values

    func unsigned(_ slot: Range<Int>?, _ what: StaticString) throws -> UInt64 {
        var reader = try self.reader(slot, what)
        return try reader.varint()
    }

    func signed(_ slot: Range<Int>?, _ what: StaticString) throws -> Int64 {
        WireBytes.unzigzag(try unsigned(slot, what))
    }

    func int(_ slot: Range<Int>?, _ what: StaticString) throws -> Int {
        let value = try signed(slot, what)
        guard let result = Int(exactly: value) else { throw WireError.malformed("\(what): \(value) does not fit Int") }
        return result
    }

    func double(_ slot: Range<Int>?, _ what: StaticString) throws -> Double {
        var reader = try self.reader(slot, what)
        return Double(bitPattern: try reader.fixed(8))
    }

    func bool(_ slot: Range<Int>?, _ what: StaticString) throws -> Bool {
        var reader = try self.reader(slot, what)
        switch try reader.byte() {
        case 0: return false
        case 1: return true
        case let other: throw WireError.malformed("\(what): \(other) is not a Boolean")
        }
    }

    func string(_ slot: Range<Int>?, _ what: StaticString) throws -> String {
        var reader = try self.reader(slot, what)
        return try tables.string(&reader)
    }

    func type(_ slot: Range<Int>?, _ what: StaticString) throws -> TypeIdentity {
        var reader = try self.reader(slot, what)
        return try tables.type(&reader)
    }

    /// An array of doubles, each element a slot of 8 bytes.
    func doubles(_ slot: Range<Int>?, _ what: StaticString) throws -> [Double] {
        var reader = try self.reader(slot, what)
        let count = try reader.count(atMost: reader.remaining, "\(what): the element count")
        var doubles: [Double] = []
        doubles.reserveCapacity(min(count, 1024))
        for _ in 0..<count {
            guard let element = try reader.slot(), element.count == 8 else {
                throw WireError.malformed("\(what): an element is not a number")
            }
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(buffer[element.lowerBound + index]) << (8 * UInt64(index)) }
            doubles.append(Double(bitPattern: bits))
        }
        return doubles
    }

    /// A keyed container of integers whose keys are names, as `Dictionary<String, Int>` encodes itself; the first of
    /// two entries with the same name wins, as it does through `Codable`.
    func intsByName(_ slot: Range<Int>?, _ what: StaticString) throws -> [String: Int] {
        var reader = try self.reader(slot, what)
        let count = try reader.count(atMost: reader.remaining, "\(what): the field count")
        var values: [String: Int] = [:]
        for _ in 0..<count {
            let name = try tables.string(&reader)
            let value = try int(try reader.slot(), what)
            if values[name] == nil { values[name] = value }
        }
        return values
    }

    /// A required field's value, or the error naming it.
    static func required<T>(_ value: T?, _ what: StaticString, _ name: StaticString) throws -> T {
        guard let value else { throw WireError.malformed("\(what): no field \"\(name)\"") }
        return value
    }
}

extension DecodingTables {
    /// The index in `fields` of the field whose name is the string at `index`, or `nil` if it names none.
    func field<Field>(named index: Int, in fields: WireFieldNames<Field>) -> Int? {
        if fieldIndices.count <= fields.id {
            fieldIndices += Array(repeating: [], count: fields.id + 1 - fieldIndices.count)
        }
        if fieldIndices[fields.id].isEmpty {
            fieldIndices[fields.id] = Array(repeating: -1, count: fields.names.count)
        }
        if let field = fieldIndices[fields.id].firstIndex(of: index) { return field }
        let name = strings[index]
        guard let field = fields.names.firstIndex(of: name) else { return nil }
        // The first index seen for a name is kept; a table that holds the same name twice is matched by name.
        if fieldIndices[fields.id][field] < 0 { fieldIndices[fields.id][field] = index }
        return field
    }
}
