/// A JSON value read from a scenario file, with where it starts, so that every error can point at it.
package struct JSONValue: Sendable {
    /// A place in the file: line and column from 1, the column counted in Unicode scalars.
    package struct Position: Hashable, Sendable {
        package let line: Int
        package let column: Int
    }

    /// One member of an object, in file order.
    package struct Member: Sendable {
        package let key: String
        package let keyPosition: Position
        package let value: JSONValue
    }

    package enum Kind: Sendable {
        case object([Member])
        case array([JSONValue])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    package let kind: Kind
    package let position: Position

    package init(kind: Kind, position: Position) {
        self.kind = kind
        self.position = position
    }

    /// How an error message names this value: its text for short scalars, its kind for the rest.
    package var found: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "\"\(JSONValue.shorten(text))\""
        case .number(let number): "\(JSONValue.format(number))"
        case .bool(let value): "\(value)"
        case .null: "null"
        }
    }

    /// At most 40 characters of `text`, with an ellipsis when cut.
    package static func shorten(_ text: String) -> String {
        let cut = text.unicodeScalars.prefix(40)
        var result = String(String.UnicodeScalarView(cut))
        if cut.count < text.unicodeScalars.count { result += "..." }
        return DocumentProblem.oneLine(result)
    }

    /// A number as a person writes it: `5`, not `5.0`.
    package static func format(_ number: Double) -> String {
        if number.isFinite, number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return String(number)
    }
}
