import PonyJSON

/// Why a scenario could not be read: a missing or unreadable file, broken syntax, or a value that is not valid.
///
/// Its ``description`` is one line that names the file, the line and column where known, what was wrong, what
/// was expected and what was found, and the valid choices where there is a list of them:
///
/// ```
/// leak.json:12:17: unknown mail type; expected a mail type, found "LoginEvnt" (valid: LoginEvent, LogoutEvent, ...)
/// ```
///
/// A file with several independent problems (two bad fields, a bad phase and a bad recipient group) is reported in
/// one go: the first problem is the error itself and the rest are its ``others``, each a complete error of its own;
/// ``lines`` gives one line per problem.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is and what it is: the one-line description of a document problem.
    private let location: DocumentProblem
    /// The file, as it was named; a built-in's name for a built-in.
    public var file: String { location.file }
    /// The line, from 1, when the problem is at one place in the file.
    public var line: Int? { location.line }
    /// The column, from 1, counted in Unicode scalars, when the problem is at one place in the file.
    public var column: Int? { location.column }
    /// What was wrong, such as `unknown mail type`.
    public var problem: String { location.problem }
    /// What was expected there.
    public var expected: String? { location.expected }
    /// What was found there, quoted and shortened.
    public var found: String? { location.found }
    /// The valid choices, for a name that is not one of them.
    public var valid: [String] { location.valid }
    /// The independent problems found after this one in the same file, in file order.
    public private(set) var others: [ScenarioError]
    /// Problems beyond the ones reported, when a file has very many.
    public private(set) var unreported: Int

    /// Creates an error.
    public init(
        file: String, line: Int? = nil, column: Int? = nil, problem: String, expected: String? = nil,
        found: String? = nil, valid: [String] = []
    ) {
        self.init(
            DocumentProblem(
                file: file, line: line, column: column, problem: problem, expected: expected, found: found,
                valid: valid))
    }

    /// This error with more problems of the same file after it.
    func adding(others: [ScenarioError], unreported: Int) -> ScenarioError {
        var copy = self
        copy.others = others
        copy.unreported = unreported
        return copy
    }

    /// One line per problem: this one, then ``others``, then how many were left out, if any.
    public var lines: [String] {
        var lines = [singleDescription] + others.map(\.singleDescription)
        if unreported > 0 { lines.append("\(DocumentProblem.oneLine(file)): \(unreported) more problems not shown") }
        return lines
    }

    /// `<file>:<line>:<col>: <problem>; expected <...>, found <...> (valid: a, b, c)`, on one line; with other
    /// problems, it ends by saying how many (``lines`` lists them).
    public var description: String {
        let more = others.count + unreported
        guard more > 0 else { return singleDescription }
        return singleDescription + " (and \(more) more problem\(more == 1 ? "" : "s"))"
    }

    private var singleDescription: String {
        location.description
    }
}

extension ScenarioError {
    /// The error of a problem the JSON reader found, or of a file that could not be read.
    init(_ problem: DocumentProblem) {
        location = problem
        others = []
        unreported = 0
    }
}
