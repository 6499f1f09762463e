import PonyExpress

/// Which senders a group of recipients accepts, and so which `register` overload it uses.
public enum ScenarioSenderFilter: Sendable, Hashable, CustomStringConvertible {
    /// A handler without a sender parameter: any sender, none included. Written `any`.
    case any
    /// A handler taking `S?`: no sender, or one of this class. Written `CartService?`.
    case optional(ScenarioSenderType)
    /// A handler taking `S`: only a sender of this class. Written `CartService`.
    case required(ScenarioSenderType)
    /// Registered with `sender:` on the first instance of this class. Written `exactly CartService`.
    case exact(ScenarioSenderType)

    /// The filter as a scenario file writes it.
    public var description: String {
        switch self {
        case .any: "any"
        case .optional(let type): "\(type.rawValue)?"
        case .required(let type): type.rawValue
        case .exact(let type): "exactly \(type.rawValue)"
        }
    }
}
