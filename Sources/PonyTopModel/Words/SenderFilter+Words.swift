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
}
