import PonyExpress

extension SenderFilter {
    /// The filter as the SENDER column, the report and a site's key write it: `any`, `T?`, `T` or `=T`.
    package var notation: String {
        switch self {
        case .any: "any"
        case .optional(let type): type.name + "?"
        case .required(let type): type.name
        case .exact(let type): "=" + type.name
        }
    }

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
