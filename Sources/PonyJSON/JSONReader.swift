/// Reads the bytes of a scenario file into a ``JSONValue``, checking encoding and size as it goes.
///
/// A pure function of its input that never traps: every byte sequence gives a value or one ``DocumentProblem``.
/// Standard JSON (RFC 8259), plus what people write by hand: a leading byte-order mark, CRLF line endings, `//` and
/// `#` comments to the end of the line, and a trailing comma before `]` or `}`. Limits, each its own error:
/// ``maxFileSize`` bytes, ``maxLineLength`` bytes per line, ``maxDepth`` levels of nesting.
package struct JSONReader {
    /// The largest file accepted, in bytes (1 MiB).
    package static let maxFileSize = 1 << 20
    /// The longest line accepted, in bytes, line ending excluded.
    package static let maxLineLength = 4_096
    /// The deepest nesting of objects and arrays accepted.
    package static let maxDepth = 32

    private let bytes: [UInt8]
    private let fileName: String
    private let document: String
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8], fileName: String, document: String) {
        self.bytes = bytes
        self.fileName = fileName
        self.document = document
    }

    /// Reads a whole file's bytes as one JSON value.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - fileName: How errors name the file.
    ///   - document: What the file describes, for errors about a file that is empty or goes on after its object.
    package static func read(
        _ bytes: [UInt8], fileName: String, document: String = "scenario"
    ) throws(DocumentProblem) -> JSONValue {
        guard bytes.count <= maxFileSize else {
            throw DocumentProblem(
                file: fileName, problem: "file too large", expected: "at most \(maxFileSize) bytes",
                found: "\(bytes.count) bytes")
        }
        try checkText(bytes, fileName: fileName)
        var reader = JSONReader(bytes: bytes, fileName: fileName, document: document)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            reader.offset = 3
            reader.lineStart = 3
        }
        reader.skipWhitespace()
        guard reader.offset < bytes.count else {
            throw DocumentProblem(
                file: fileName, line: reader.line, column: reader.column(at: reader.offset), problem: "file is empty",
                expected: "a JSON object describing a \(document)", found: "nothing")
        }
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.offset >= bytes.count else {
            throw reader.error("unexpected text after the \(document)'s closing brace", expected: "end of file")
        }
        return value
    }

    // MARK: - Encoding, NUL bytes and line length

    /// Checks that the bytes are UTF-8 without NUL bytes and that no line is too long, reporting the first
    /// offending place.
    private static func checkText(_ bytes: [UInt8], fileName: String) throws(DocumentProblem) {
        var line = 1
        // A byte-order mark is not part of the first line's text.
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lineStart = index
        var column = 1
        func fail(_ problem: String, expected: String, found: String) -> DocumentProblem {
            DocumentProblem(
                file: fileName, line: line, column: column, problem: problem, expected: expected, found: found)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                index += 1
                lineStart = index
                column = 1
                continue
            }
            if index - lineStart >= maxLineLength,
                !(byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A)
            {
                let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
                var length = end - lineStart
                if end > lineStart, bytes[end - 1] == 0x0D { length -= 1 }
                throw fail(
                    "line too long", expected: "at most \(maxLineLength) bytes per line",
                    found: "\(length) bytes")
            }
            if byte == 0 {
                throw fail("NUL byte in file", expected: "UTF-8 text", found: "byte 0x00")
            }
            let length: Int
            switch byte {
            case 0x00..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: throw fail("not valid UTF-8", expected: "UTF-8 text", found: "byte 0x\(hex(byte))")
            }
            guard index + length <= bytes.count else {
                throw fail("not valid UTF-8", expected: "UTF-8 text", found: "a truncated character at end of file")
            }
            if length > 1 {
                for next in 1..<length where bytes[index + next] & 0xC0 != 0x80 {
                    throw fail(
                        "not valid UTF-8", expected: "UTF-8 text",
                        found: "byte 0x\(hex(bytes[index + next])) inside a character")
                }
                let second = bytes[index + 1]
                let overlongOrSurrogate =
                    (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F)
                    || (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F)
                if overlongOrSurrogate {
                    throw fail("not valid UTF-8", expected: "UTF-8 text", found: "byte 0x\(hex(byte)) 0x\(hex(second))")
                }
            }
            index += length
            column += 1
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    // MARK: - Positions and errors

    /// The column of `offset` on the current line, counted in Unicode scalars.
    private func column(at offset: Int) -> Int {
        var column = 1
        var index = lineStart
        while index < offset, index < bytes.count {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return column
    }

    private var position: JSONValue.Position {
        JSONValue.Position(line: line, column: column(at: offset))
    }

    /// An error at the current place, naming what is there.
    private func error(_ problem: String, expected: String) -> DocumentProblem {
        DocumentProblem(
            file: fileName, line: line, column: column(at: offset), problem: problem, expected: expected,
            found: describeHere())
    }

    /// What is at the current place, for an error message.
    private func describeHere() -> String {
        guard offset < bytes.count else { return "end of file" }
        let byte = bytes[offset]
        if byte == 0x0A || byte == 0x0D { return "end of line" }
        if byte < 0x20 || byte == 0x7F { return "control character U+\(JSONReader.hex(0))\(JSONReader.hex(byte))" }
        var end = offset
        while end < bytes.count, end - offset < 24 {
            let next = bytes[end]
            if next == 0x0A || next == 0x0D || next == 0x20 || next == 0x09 { break }
            end += 1
        }
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "\"\(JSONValue.shorten(String(decoding: bytes[offset..<end], as: UTF8.self)))\""
    }

    // MARK: - Grammar

    /// Skips spaces, line ends and comments: `#` or `//` to the end of the line.
    private mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0D:
                offset += 1
            case 0x0A:
                offset += 1
                line += 1
                lineStart = offset
            case UInt8(ascii: "#"):
                skipToEndOfLine()
            case UInt8(ascii: "/") where offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "/"):
                skipToEndOfLine()
            default:
                return
            }
        }
    }

    private mutating func skipToEndOfLine() {
        while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 }
    }

    private mutating func readValue(depth: Int) throws(DocumentProblem) -> JSONValue {
        guard offset < bytes.count else { throw error("unexpected end of file", expected: "a value") }
        let start = position
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            return JSONValue(kind: .object(try readObject(depth: depth + 1)), position: start)
        case UInt8(ascii: "["):
            return JSONValue(kind: .array(try readArray(depth: depth + 1)), position: start)
        case UInt8(ascii: "\""):
            return JSONValue(kind: .string(try readString()), position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try readNumber()), position: start)
        default:
            for (word, kind) in [("true", JSONValue.Kind.bool(true)), ("false", .bool(false)), ("null", .null)]
            where matches(word) {
                offset += word.utf8.count
                return JSONValue(kind: kind, position: start)
            }
            throw error("syntax error", expected: "a value (an object, array, string, number, true, false or null)")
        }
    }

    private func matches(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard offset + utf8.count <= bytes.count, Array(bytes[offset..<offset + utf8.count]) == utf8 else {
            return false
        }
        let after = offset + utf8.count
        return after == bytes.count || !JSONReader.isWordByte(bytes[after])
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private mutating func readObject(depth: Int) throws(DocumentProblem) -> [JSONValue.Member] {
        try readElements(depth: depth, closedBy: UInt8(ascii: "}")) { reader, members throws(DocumentProblem) in
            try reader.readMember(after: members, depth: depth)
        }
    }

    /// One field of an object, `"name": value`, whose name none of the fields before it has.
    private mutating func readMember(
        after members: [JSONValue.Member], depth: Int
    ) throws(DocumentProblem) -> JSONValue.Member {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw error("syntax error", expected: "a field name in double quotes")
        }
        let keyPosition = position
        let key = try readString()
        if members.contains(where: { $0.key == key }) {
            throw DocumentProblem(
                file: fileName, line: keyPosition.line, column: keyPosition.column, problem: "duplicate field",
                expected: "each field once", found: "\"\(JSONValue.shorten(key))\" again")
        }
        skipWhitespace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else {
            throw error("syntax error", expected: "':' after the field name")
        }
        offset += 1
        skipWhitespace()
        let value = try readValue(depth: depth)
        return JSONValue.Member(key: key, keyPosition: keyPosition, value: value)
    }

    private mutating func readArray(depth: Int) throws(DocumentProblem) -> [JSONValue] {
        try readElements(depth: depth, closedBy: UInt8(ascii: "]")) { reader, _ throws(DocumentProblem) in
            try reader.readValue(depth: depth)
        }
    }

    /// The elements of an object or an array, from its opening bracket through `close`: separated by commas, with
    /// a trailing comma allowed, each read by `readElement` (given the elements before it) at its first character.
    private mutating func readElements<Element>(
        depth: Int, closedBy close: UInt8,
        _ readElement: (inout JSONReader, _ before: [Element]) throws(DocumentProblem) -> Element
    ) throws(DocumentProblem) -> [Element] {
        guard depth <= JSONReader.maxDepth else {
            throw error("nested too deeply", expected: "at most \(JSONReader.maxDepth) levels of objects and arrays")
        }
        let commaOrClose = "',' or '\(Character(Unicode.Scalar(close)))'"
        offset += 1
        var elements: [Element] = []
        skipWhitespace()
        if offset < bytes.count, bytes[offset] == close {
            offset += 1
            return elements
        }
        while true {
            skipWhitespace()
            let element = try readElement(&self, elements)
            elements.append(element)
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of file", expected: commaOrClose) }
            if bytes[offset] == UInt8(ascii: ",") {
                offset += 1
                skipWhitespace()
                if offset < bytes.count, bytes[offset] == close {
                    offset += 1
                    return elements
                }
                continue
            }
            if bytes[offset] == close {
                offset += 1
                return elements
            }
            throw error("syntax error", expected: commaOrClose)
        }
    }

    private mutating func readString() throws(DocumentProblem) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var start = offset
        func flush(upTo end: Int) {
            if end > start {
                scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars)
            }
        }
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                flush(upTo: offset)
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(upTo: offset)
                scalars.append(try readEscape())
                start = offset
            case 0x00..<0x20:
                throw error("unterminated string or control character in string", expected: "a closing '\"'")
            default:
                offset += 1
            }
        }
        throw error("unterminated string", expected: "a closing '\"'")
    }

    private mutating func readEscape() throws(DocumentProblem) -> Unicode.Scalar {
        offset += 1
        guard offset < bytes.count else { throw error("unterminated string", expected: "an escape such as \\n") }
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try readHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                else { throw error("lone surrogate in \\u escape", expected: "a low surrogate \\uDC00-\\uDFFF") }
                offset += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw error("lone surrogate in \\u escape", expected: "a low surrogate \\uDC00-\\uDFFF")
                }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                if let scalar = Unicode.Scalar(value) { return scalar }
            } else if let scalar = Unicode.Scalar(high) {
                return scalar
            }
            throw error("lone surrogate in \\u escape", expected: "a Unicode scalar value")
        default:
            offset -= 1
            throw error("unknown escape in string", expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
    }

    private mutating func readHex4() throws(DocumentProblem) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard offset < bytes.count else { throw error("unterminated \\u escape", expected: "four hex digits") }
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("bad \\u escape", expected: "four hex digits")
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private mutating func readNumber() throws(DocumentProblem) -> Double {
        let start = offset
        let startPosition = position
        func digits() -> Int {
            let first = offset
            while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
                offset += 1
            }
            return offset - first
        }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        guard digits() > 0 else { throw error("bad number", expected: "a digit") }
        if bytes[integerStart] == UInt8(ascii: "0"), offset - integerStart > 1 {
            offset = integerStart
            throw error("bad number", expected: "no leading zeros")
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits() > 0 else { throw error("bad number", expected: "a digit after '.'") }
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                offset += 1
            }
            guard digits() > 0 else { throw error("bad number", expected: "a digit in the exponent") }
        }
        if offset < bytes.count, JSONReader.isWordByte(bytes[offset]) {
            throw error("bad number", expected: "a number such as 5, 0.25 or 1e3")
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw DocumentProblem(
                file: fileName, line: startPosition.line, column: startPosition.column, problem: "number out of range",
                expected: "a finite number", found: JSONValue.shorten(text))
        }
        return value
    }
}
