import PonyExpress
import PonyTopModel

extension SenderFilter {
    /// The filter in words, for the details view.
    var meaning: String {
        switch self {
        case .any: "any: every post, with or without a sender"
        case .optional(let type): "\(notation): posts without a sender or from a \(type.name)"
        case .required(let type): "\(notation): only posts from a \(type.name)"
        case .exact(let type): "\(notation): only posts from one exact \(type.name) instance"
        }
    }
}
