/// The names `--fail-on`, `--allow`, `--warn` and the config file accept for categories and rules: a category is
/// accepted singular and plural (`leak`, `leaks`), a rule by its kind (`stalledQueue`), and everything by `all`.
public enum FindingVocabulary {
    /// The category a name stands for, singular or plural, in any case: `leak`, `leaks`, `Slow`.
    ///
    /// - Parameter name: A category's name.
    /// - Returns: The category, or `nil`.
    public static func category(named name: String) -> Finding.Category? {
        let lowered = name.lowercased()
        return Finding.Category.allCases.first { $0.rawValue == lowered || plural(of: $0) == lowered }
    }

    /// A category's plural: `leaks`, `oversubscriptions`; `slow` and `churn` stay as they are.
    ///
    /// - Parameter category: A category.
    /// - Returns: Its plural.
    public static func plural(of category: Finding.Category) -> String {
        switch category {
        case .leak: "leaks"
        case .oversubscription: "oversubscriptions"
        case .slow: "slow"
        case .churn: "churn"
        }
    }

    /// The kinds a name stands for: `all`, a category (singular or plural) or a rule's kind.
    ///
    /// - Parameter name: The name.
    /// - Returns: The kinds, or `nil` for a name that is none of these.
    public static func kinds(named name: String) -> Set<Finding.Kind>? {
        if name.lowercased() == "all" { return Set(FindingRules.all.map(\.kind)) }
        if let category = category(named: name) {
            return Set(FindingRules.all.filter { $0.category == category }.map(\.kind))
        }
        return FindingRules.all.first { $0.kind.rawValue.lowercased() == name.lowercased() }.map { [$0.kind] }
    }

    /// The category names, singular then plural where it differs: `leak`, `leaks`, `oversubscription`, ...
    public static var categoryNames: [String] {
        Finding.Category.allCases.flatMap { category in
            let plural = plural(of: category)
            return plural == category.rawValue ? [category.rawValue] : [category.rawValue, plural]
        }
    }

    /// Every name ``kinds(named:)`` accepts: `all`, the categories, the rules' kinds.
    public static var ruleNames: [String] {
        ["all"] + categoryNames + FindingRules.all.map(\.kind.rawValue)
    }
}
