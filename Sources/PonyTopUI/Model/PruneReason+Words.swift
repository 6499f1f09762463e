import PonyExpress
import PonyTopModel

extension Prune.Reason {
    /// What was released, for the details view: `the recipient object` or `the exact sender`.
    var released: String {
        switch self {
        case .recipientReleased: "the recipient object"
        case .senderReleased: "the exact sender"
        }
    }
}
