/// One problem in a hand-written JSON document (a scenario file, ponytop's config file): where it is, what was
/// wrong, what was expected and found, and the valid choices where there is a list of them.
///
/// Its ``description`` is one line:
///
/// ```
/// leak.json:12:17: unknown mail type; expected a mail type, found "LoginEvnt" (valid: LoginEvent, LogoutEvent, ...)
/// ```
package struct DocumentProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as it was named.
    package let file: String
    /// The line, from 1, when the problem is at one place in the file.
    package let line: Int?
    /// The column, from 1, counted in Unicode scalars, when the problem is at one place in the file.
    package let column: Int?
    /// What was wrong, such as `unknown mail type`.
    package let problem: String
    /// What was expected there.
    package let expected: String?
    /// What was found there, quoted and shortened.
    package let found: String?
    /// The valid choices, for a name that is not one of them.
    package let valid: [String]

    package init(
        file: String, line: Int? = nil, column: Int? = nil, problem: String, expected: String? = nil,
        found: String? = nil, valid: [String] = []
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
        self.expected = expected
        self.found = found
        self.valid = valid
    }

    /// `<file>:<line>:<col>: <problem>; expected <...>, found <...> (valid: a, b, c)`, on one line.
    package var description: String {
        var text = DocumentProblem.oneLine(file)
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": \(problem)"
        switch (expected, found) {
        case (let expected?, let found?): text += "; expected \(expected), found \(found)"
        case (let expected?, nil): text += "; expected \(expected)"
        case (nil, let found?): text += "; found \(found)"
        case (nil, nil): break
        }
        if !valid.isEmpty { text += " (valid: \(valid.joined(separator: ", ")))" }
        return DocumentProblem.oneLine(text)
    }

    /// Replaces control characters, so that a description is always one line whatever the input held: C0 and C1
    /// controls, DEL, the line and paragraph separators (U+2028, U+2029) and the bidirectional controls that
    /// reorder what is shown, each written as a Swift escape.
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a scalar would break the line or steer the terminal it is shown on: the same scalars as the monitor's
    /// `steersTerminal`, which this module cannot import (`TerminalTextTests` holds the two lists equal).
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
