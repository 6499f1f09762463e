/// A value that a report writes as JSON `null` when it is missing, rather than leaving the key out or writing 0:
/// "no data" and "zero" are different answers.
package struct Nullable<Value: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
    /// The value, `nil` when there is no data.
    package var value: Value?

    /// Wraps a value.
    package init(_ value: Value?) {
        self.value = value
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
