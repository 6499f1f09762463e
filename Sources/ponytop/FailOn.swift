import ArgumentParser

/// The findings `--fail-on` fails on.
enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case leaks, oversubscription, any

    /// The finding category, or `nil` for any.
    var category: String? {
        switch self {
        case .leaks: "leak"
        case .oversubscription: "oversubscription"
        case .any: nil
        }
    }

    func matches(_ category: String) -> Bool {
        self.category == nil || self.category == category
    }
}
