import PonyExpress

extension Finding.Kind {
    /// The same object is registered more than once for one mail type: each post reaches it several times.
    public static let duplicateRegistration: Self = "duplicateRegistration"
}

extension Evidence.Name {
    /// Objects registered more than once.
    public static let objects: Self = "objects"
    /// Live registrations of those objects.
    public static let registrations: Self = "registrations"
    /// The most registrations one of those objects has.
    public static let mostForOneObject: Self = "most for one object"
}

/// Reports objects registered more than once for one mail type: one finding per mail type and object type, with how
/// many objects and registrations, however many objects do it (three cart screens that each re-register are one
/// problem), at the site of the latest repeated registration.
struct DuplicateRegistrationRule: FindingRule {
    static let kind = Finding.Kind.duplicateRegistration
    static let category = Finding.Category.oversubscription
    static let summary =
        "One object is registered several times for the same mail type, usually by a screen that registers on every appearance."

    init(settings: MonitorSettings) {}

    private struct Group: Hashable {
        let mailType: TypeIdentity
        let objectType: TypeIdentity?
    }

    /// Without parameters, its findings are the facts: gathered once, judged by dropping or keeping them.
    func judge(_ facts: RuleFacts) -> [Finding] {
        facts.standing.filter { $0.kind == Self.kind }
    }

    /// The findings `input` shows.
    static func findings(in input: FindingInput) -> [Finding] {
        var groups: [Group: [ObjectIdentifier: [RecipientInfo]]] = [:]
        for recipient in input.recipients.duplicates {
            guard let object = recipient.info.objectIdentifier else { continue }
            let group = Group(mailType: recipient.info.mailType, objectType: recipient.info.kind.objectType)
            groups[group, default: [:]][object, default: []].append(recipient.info)
        }
        return groups.compactMap { group, objects -> Finding? in
            let repeated = objects.values.filter { $0.count > 1 }
            guard let latest = repeated.joined().max(by: { $0.id < $1.id }) else { return nil }
            let registrations = repeated.reduce(0) { $0 + $1.count }
            let most = repeated.map(\.count).max() ?? 0
            // It began with an object's second registration: the app's own date of it, for every judge.
            let began = repeated.compactMap { registrations in
                registrations.compactMap { input.entries[$0.id]?.registeredAt }.sorted().dropFirst().first
            }.min()
            let owner = group.objectType?.name ?? "object"
            let explanation =
                repeated.count == 1
                ? "one \(owner) is registered \(most) times for \(group.mailType.name) at \(latest.site) "
                    + "(\(repeated[0].map(\.id.description).joined(separator: ", ")))"
                : "\(repeated.count) \(owner) objects are each registered more than once for \(group.mailType.name) "
                    + "at \(latest.site): \(registrations) registrations, up to \(most) for one object"
            return Finding(
                kind: Self.kind, mailType: group.mailType, site: latest.site, subject: group.objectType?.name,
                explanation: explanation,
                evidence: [
                    Evidence(name: .objects, value: Double(repeated.count)),
                    Evidence(name: .registrations, value: Double(registrations)),
                    Evidence(name: .mostForOneObject, value: Double(most)),
                ], firstSeen: began ?? 0)
        }
    }
}
