import PonyExpress

/// What a row holds in a column, for sorting: a number, a text or a source location. Missing values (a `-` on
/// screen) sort below every number.
package enum SortKey: Comparable, Sendable {
    /// No value: below every number.
    case none
    /// A number.
    case number(Double)
    /// A text, compared ignoring case.
    case text(String)
    /// A source location: by file, ignoring case, then by line as a number (`Cart.swift:9` before `Cart.swift:10`).
    case location(SourceLocation)

    package static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): false
        case (.none, _): true
        case (_, .none): false
        case (.number(let left), .number(let right)): left < right
        case (.text(let left), .text(let right)): left.lowercased() < right.lowercased()
        case (.location(let left), .location(let right)):
            (left.fileID.lowercased(), left.line) < (right.fileID.lowercased(), right.line)
        case (.number, _): true
        case (_, .number): false
        case (.text, .location): true
        case (.location, .text): false
        }
    }

    /// A count.
    package static func count(_ value: some BinaryInteger) -> SortKey { .number(Double(value)) }

    /// An optional count or duration.
    package static func optional(_ value: (some BinaryInteger)?) -> SortKey {
        value.map { .number(Double($0)) } ?? .none
    }
}
