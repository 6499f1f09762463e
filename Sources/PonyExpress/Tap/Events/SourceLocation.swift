/// Where a registration was made, captured with `#fileID` and `#line` defaults.
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file as `#fileID` gives it: `Module/File.swift`.
    public let fileID: String
    /// The line of the `register` call.
    public let line: UInt

    /// Creates a location; the `register` methods fill it in for you.
    public init(fileID: String, line: UInt) {
        self.fileID = fileID
        self.line = line
    }

    init(_ fileID: StaticString, _ line: UInt) {
        self.init(fileID: fileID.description, line: line)
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(fileID):\(line)" }
}
