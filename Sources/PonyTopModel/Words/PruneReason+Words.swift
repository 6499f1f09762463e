import PonyExpress

extension Prune.Reason {
    /// `recipient` or `sender`: what was released, as the report and a prune group's key name it.
    package var word: String {
        switch self {
        case .recipientReleased: "recipient"
        case .senderReleased: "sender"
        }
    }
}
