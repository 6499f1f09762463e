/// Why an agent could not start.
public enum AgentError: Error, Equatable, CustomStringConvertible {
    /// The runtime directory is missing, not ours, or open to others.
    case unsafeDirectory(String)
    /// The socket or TCP listener could not be opened.
    case cannotListen(String)
    /// A ``MonitorAgent/Limits`` setting out of its range.
    case invalidLimits(String)

    public var description: String {
        switch self {
        case .unsafeDirectory(let detail): "ponytop agent: unsafe runtime directory: \(detail)"
        case .cannotListen(let detail): "ponytop agent: cannot listen: \(detail)"
        case .invalidLimits(let detail): "ponytop agent: invalid limits: \(detail)"
        }
    }
}
