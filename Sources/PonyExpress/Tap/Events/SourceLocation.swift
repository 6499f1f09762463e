/// Where a registration was made, captured with `#fileID`, `#filePath` and `#line` defaults.
///
/// A location is identified by ``fileID`` and ``line``: two builds of one app (in different checkouts) give one site.
/// ``filePath`` is kept beside them so that a tool can map the site to a file in the repository (ponytop's SARIF).
public struct SourceLocation: Hashable, Sendable, Codable, CustomStringConvertible, CustomReflectable {
    /// The file path as a registration captured it (a literal, nothing allocated) or as it was decoded.
    private enum Path: Sendable {
        case literal(StaticString)
        case text(String)
    }

    private enum CodingKeys: String, CodingKey {
        case fileID, line, filePath
    }

    /// The file as `#fileID` gives it: `Module/File.swift`.
    public let fileID: String
    /// The line of the `register` call.
    public let line: UInt
    private let path: Path?

    /// Creates a location; the `register` methods fill it in for you.
    ///
    /// - Parameters:
    ///   - fileID: `Module/File.swift`.
    ///   - line: The line.
    ///   - filePath: The file's full path as `#filePath` gives it, if known.
    public init(fileID: String, line: UInt, filePath: String? = nil) {
        self.fileID = fileID
        self.line = line
        path = filePath.map(Path.text)
    }

    /// A registration's location: the path stays a literal until someone asks for it, so a registration costs no
    /// extra allocation for it.
    init(_ fileID: StaticString, _ line: UInt, filePath: StaticString? = nil) {
        self.fileID = fileID.description
        self.line = line
        path = filePath.map(Path.literal)
    }

    /// The file's full path at build time, as `#filePath` gives it (`/home/me/app/Sources/App/Cart.swift`); `nil`
    /// when it was not captured (a location made by hand, or received from an older agent).
    public var filePath: String? {
        switch path {
        case .literal(let literal): literal.description
        case .text(let text): text
        case nil: nil
        }
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(fileID):\(line)" }

    /// The location as a debugger or a dump shows it: its file ID, line and file path, however the path is kept.
    public var customMirror: Mirror {
        Mirror(self, children: ["fileID": fileID, "line": line, "filePath": filePath as Any], displayStyle: .struct)
    }

    public static func == (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        lhs.fileID == rhs.fileID && lhs.line == rhs.line
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileID)
        hasher.combine(line)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            fileID: try container.decode(String.self, forKey: .fileID),
            line: try container.decode(UInt.self, forKey: .line),
            filePath: try container.decodeIfPresent(String.self, forKey: .filePath))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fileID, forKey: .fileID)
        try container.encode(line, forKey: .line)
        try container.encodeIfPresent(filePath, forKey: .filePath)
    }
}
