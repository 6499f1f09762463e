import PonyExpress

extension Finding.Kind {
    /// Registrations outlived the scope they were made in (a request, a screen, a job) by more than its grace
    /// period: a leak, known from one occurrence.
    public static let outlivedScope: Self = "outlivedScope"
}

extension Evidence.Name {
    /// Registrations of the site that outlived their scope and are still registered.
    public static let outlived: Self = "outlived"
    /// Scopes of the name whose registrations at the site outlived them.
    public static let leakedScopes: Self = "leaked scopes"
    /// Scopes of the name whose registrations at the site were all gone by the end of the grace period.
    public static let cleanScopes: Self = "clean scopes"
    /// The scope's grace period, in nanoseconds.
    public static let grace: Self = "grace"
}

/// Reports a registration site whose registrations outlived the scope they were made in (``MailScope`` in
/// PonyExpress): when a scope ends and its grace period has passed, the post office tells the taps which of its
/// registrations are still registered with their recipient alive, and each one is a leak at once, whatever the
/// traffic. One finding per scope name and site; it holds while any registration that outlived a scope of that name
/// is still registered, and names how many scopes leaked and how many ended clean.
///
/// Registrations made outside any scope, or with `RegistrationOptions.outlivesScope`, never reach this rule; a site
/// this rule judges is left out of ``Finding/Kind/growingRegistrations``, which would report the same leak later.
struct OutlivedScopeRule: FindingRule {
    static let kind = Finding.Kind.outlivedScope
    static let category = Finding.Category.leak
    static let summary =
        "Registrations outlived the scope they were made in (a request, a screen, a job) by more than its grace period: a leak, known at once."

    init(settings: MonitorSettings) {}

    /// Without parameters, its findings are the facts: gathered once, judged by dropping or keeping them.
    func judge(_ facts: RuleFacts) -> [Finding] {
        facts.standing.filter { $0.kind == Self.kind }
    }

    /// The findings `input` shows.
    static func findings(in input: FindingInput) -> [Finding] {
        input.scopes.compactMap { key, record -> Finding? in
            let alive = record.outlived.compactMap { id, _ -> RecipientRegistry.Entry? in
                guard let entry = input.entries[id], input.liveness.isAlive(id) else { return nil }
                return entry
            }
            // It began when the monitor heard the first of those alive outlived their scope: the app's own date.
            let began = alive.compactMap { record.outlived[$0.info.id] }.min()
            guard let oldest = alive.map(\.registeredAt).min() else { return nil }
            let age = input.time.elapsed(since: oldest)
            let scopes = record.leakedScopes + record.cleanScopes
            let what = alive.count == 1 ? "1 registration" : "\(alive.count) registrations"
            let outlived =
                record.grace == 0
                ? "outlived the scope's end"
                : "outlived the scope by more than its grace of \(Units.duration(record.grace))"
            let explanation =
                "\(what) for \(key.mailType.name) made at \(key.site) in scope \"\(key.scope)\" \(outlived): "
                + "\(record.leakedScopes) of \(scopes) such scopes leaked, the oldest registration "
                + "\(Units.duration(age)) old"
            return Finding(
                kind: Self.kind, mailType: key.mailType, site: key.site, subject: key.scope,
                explanation: explanation,
                evidence: [
                    Evidence(name: .outlived, value: Double(alive.count)),
                    Evidence(name: .leakedScopes, value: Double(record.leakedScopes)),
                    Evidence(name: .cleanScopes, value: Double(record.cleanScopes)),
                    Evidence(name: .oldestAge, value: Double(age), unit: .nanoseconds),
                    Evidence(name: .grace, value: Double(record.grace), unit: .nanoseconds),
                ], firstSeen: began ?? 0)
        }
    }
}
