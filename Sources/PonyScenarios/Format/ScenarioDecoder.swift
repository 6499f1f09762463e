import PonyJSON

/// Turns the JSON of a scenario file into a ``Scenario``, checking every field: its type, its range, and names
/// against the catalogue. Each problem is one ``ScenarioError`` pointing at the value at fault.
struct ScenarioDecoder {
    /// The documented limits of a scenario file's values.
    enum Limits {
        static let nameLength = 64
        static let summaryLength = 200
        static let phases = 100
        static let groups = 100
        static let duration = 0.01...86_400.0
        static let rate = 0.0...ScenarioPlan.maxRate
        static let threads = 1...ScenarioPlan.maxThreads
        static let weight = 0.000_001...1_000_000.0
        static let count = 1...RecipientPopulation.maxCount
        static let lifetime = RecipientPopulation.minLifetime...86_400.0
        static let handlerTime = 0.0...0.1
        static let limit = 1...RecipientPopulation.maxLimit
        static let burstEvery = 0.05...86_400.0
        static let burstSize = 1...1_000_000
        static let scopeLength = 100
        static let leakEvery = 2...1_000_000
    }

    static let scenarioFields = ["name", "summary", "then", "recipients", "phases"]
    static let phaseFields = ["name", "duration", "threads", "rate", "mail", "bursts"]
    static let groupFields = [
        "kind", "mail", "count", "queue", "sender", "lifetime", "end", "handlerTime", "limit", "scope", "leakEvery",
    ]
    static let burstFields = ["every", "size", "mail"]
    static let choiceFields = ["weight", "sender"]
    static let rampFields = ["from", "to"]

    let file: String
    /// The problems found so far: decoding goes on past a problem wherever the rest does not depend on it.
    private let problems = ProblemLog()

    // MARK: - The scenario

    /// The scenario, or every independent problem found: the first thrown, the rest in its ``ScenarioError/others``.
    func scenario(_ root: JSONValue) throws(ScenarioError) -> Scenario {
        let decoded = decodeScenario(root)
        if let error = problems.combined { throw error }
        // Without a logged problem every part decoded.
        guard let decoded else {
            throw ScenarioError(file: file, problem: "unreadable scenario", expected: "a scenario object")
        }
        return decoded
    }

    private func decodeScenario(_ root: JSONValue) -> Scenario? {
        guard
            let fields = object(
                root, "scenario", allowed: Self.scenarioFields, required: ["name", "phases"])
        else { return nil }
        let name = field(fields, "name") { value throws(ScenarioError) in
            try text(value, "\"name\"", maxLength: Limits.nameLength)
        }
        let summary = field(fields, "summary", default: "") { value throws(ScenarioError) in
            try text(value, "\"summary\"", maxLength: Limits.summaryLength)
        }
        let ending = field(fields, "then", default: Scenario.Ending.repeat) { value throws(ScenarioError) in
            try choice(value, "ending (\"then\")", as: Scenario.Ending.self)
        }
        var recipients: [ScenarioRecipients]? = []
        if let value = fields["recipients"] {
            recipients = list(value, "\"recipients\"", expected: "an array of recipient groups", max: Limits.groups) {
                group($1)
            }
        }
        var phases: [ScenarioPhase]?
        if let value = fields["phases"] {
            phases = list(value, "\"phases\"", expected: "an array of phases", max: Limits.phases) {
                phase($1, number: $0 + 1)
            }
            if phases?.isEmpty == true {
                problems.record(fail(value, "empty phase list", expected: "at least one phase", found: "[]"))
                phases = nil
            }
        }
        guard let name, let summary, let ending, let recipients, let phases else { return nil }
        return Scenario(name: name, summary: summary, ending: ending, recipients: recipients, phases: phases)
    }

    /// The elements of an array decoded one by one, each element's problems logged independently; `nil` when the
    /// value is not such an array or any element had a problem.
    private func list<T>(
        _ value: JSONValue, _ what: String, expected: String, max: Int, _ decode: (Int, JSONValue) -> T?
    ) -> [T]? {
        guard case .array(let elements) = value.kind else {
            problems.record(fail(value, "wrong type for \(what)", expected: expected, found: value.found))
            return nil
        }
        guard elements.count <= max else {
            let noun = what == "\"phases\"" ? "phases" : "recipient groups"
            problems.record(fail(value, "too many \(noun)", expected: "at most \(max)", found: "\(elements.count)"))
            return nil
        }
        var result: [T] = []
        var complete = true
        for (index, element) in elements.enumerated() {
            if let decoded = decode(index, element) { result.append(decoded) } else { complete = false }
        }
        return complete ? result : nil
    }

    // MARK: - Phases

    private func phase(_ value: JSONValue, number: Int) -> ScenarioPhase? {
        guard let fields = object(value, "phase", allowed: Self.phaseFields, required: ["duration", "rate", "mail"])
        else { return nil }
        let name = field(fields, "name", default: "phase \(number)") { value throws(ScenarioError) in
            try text(value, "phase \"name\"", maxLength: Limits.nameLength)
        }
        let duration = field(fields, "duration") { value throws(ScenarioError) in
            try self.number(value, "\"duration\"", in: Limits.duration, unit: "seconds")
        }
        let threads = field(fields, "threads", default: 1) { value throws(ScenarioError) in
            try integer(value, "\"threads\"", in: Limits.threads)
        }
        let rate = field(fields, "rate") { value throws(ScenarioError) in try self.rate(value) }
        let mail = field(fields, "mail") { value throws(ScenarioError) in try mix(value) }
        let bursts = field(fields, "bursts", default: .some(nil)) { value throws(ScenarioError) -> ScenarioBursts? in
            try self.bursts(value)
        }
        guard let name, let duration, let threads, let rate, let mail, let bursts else { return nil }
        return ScenarioPhase(name: name, duration: duration, threads: threads, rate: rate, mail: mail, bursts: bursts)
    }

    private func rate(_ value: JSONValue) throws(ScenarioError) -> ScenarioRate {
        let expected = "posts per second (a number), \"max\", or {\"from\": N, \"to\": N}"
        switch value.kind {
        case .number:
            return .steady(try number(value, "\"rate\"", in: Limits.rate, unit: "posts per second"))
        case .string(let text):
            guard text == "max" else {
                throw fail(value, "unknown rate", expected: expected, found: value.found, valid: ["max"])
            }
            return .max
        case .object:
            let fields = try strictObject(value, "ramp", allowed: Self.rampFields, required: Self.rampFields)
            return .ramp(
                from: try number(fields["from"]!, "ramp \"from\"", in: Limits.rate, unit: "posts per second"),
                to: try number(fields["to"]!, "ramp \"to\"", in: Limits.rate, unit: "posts per second"))
        default:
            throw fail(value, "wrong type for \"rate\"", expected: expected, found: value.found)
        }
    }

    /// A mix: `"LoginEvent"`, `["LoginEvent", "CartUpdated"]`, or `{"LoginEvent": 3, "CartUpdated": {"weight": 1,
    /// "sender": "none"}}`.
    private func mix(_ value: JSONValue) throws(ScenarioError) -> [ScenarioMailChoice] {
        let expected = "a mail type, an array of mail types, or an object of mail types and weights"
        var choices: [ScenarioMailChoice] = []
        switch value.kind {
        case .string:
            choices.append(ScenarioMailChoice(try choice(value, "mail type", as: ScenarioMailType.self)))
        case .array(let elements):
            for element in elements {
                let mail = try choice(element, "mail type", as: ScenarioMailType.self)
                guard !choices.contains(where: { $0.mail == mail }) else {
                    throw fail(element, "mail type listed twice", expected: "each mail type once", found: element.found)
                }
                choices.append(ScenarioMailChoice(mail))
            }
        case .object(let members):
            for member in members {
                let key = JSONValue(kind: .string(member.key), position: member.keyPosition)
                let mail = try choice(key, "mail type", as: ScenarioMailType.self)
                choices.append(try weighted(mail, member.value))
            }
        default:
            throw fail(value, "wrong type for \"mail\"", expected: expected, found: value.found)
        }
        guard !choices.isEmpty else {
            throw fail(value, "empty mail mix", expected: "at least one mail type", found: value.found)
        }
        return choices
    }

    private func weighted(_ mail: ScenarioMailType, _ value: JSONValue) throws(ScenarioError) -> ScenarioMailChoice {
        if case .number = value.kind {
            return ScenarioMailChoice(mail, weight: try number(value, "weight", in: Limits.weight, unit: "a weight"))
        }
        guard case .object = value.kind else {
            throw fail(
                value, "wrong type for the weight of \(mail.rawValue)",
                expected: "a number, or {\"weight\": N, \"sender\": NAME}", found: value.found)
        }
        let fields = try strictObject(value, "mail entry", allowed: Self.choiceFields, required: [])
        let weight =
            try fields["weight"].map { value throws(ScenarioError) in
                try number(value, "weight", in: Limits.weight, unit: "a weight")
            } ?? 1
        guard let senderValue = fields["sender"] else { return ScenarioMailChoice(mail, weight: weight) }
        if case .string("none") = senderValue.kind { return ScenarioMailChoice(mail, weight: weight, sender: nil) }
        let sender = try choice(
            senderValue, "sender", as: ScenarioSenderType.self, extra: ["none"])
        return ScenarioMailChoice(mail, weight: weight, sender: sender)
    }

    private func bursts(_ value: JSONValue) throws(ScenarioError) -> ScenarioBursts {
        let fields = try strictObject(value, "bursts", allowed: Self.burstFields, required: ["every", "size"])
        return ScenarioBursts(
            every: try number(fields["every"]!, "bursts \"every\"", in: Limits.burstEvery, unit: "seconds"),
            size: try integer(fields["size"]!, "bursts \"size\"", in: Limits.burstSize),
            mail: try fields["mail"].map { value throws(ScenarioError) in try mix(value) } ?? [])
    }

    // MARK: - Recipients

    private func group(_ value: JSONValue) -> ScenarioRecipients? {
        guard let fields = object(value, "recipient group", allowed: Self.groupFields, required: ["kind", "mail"])
        else { return nil }
        let kind = field(fields, "kind") { value throws(ScenarioError) in
            try choice(value, "recipient kind", as: ScenarioRecipientKind.self)
        }
        let mail = field(fields, "mail") { value throws(ScenarioError) in
            let mail = try mix(value)
            for choice in mail where choice.weight != 1 || choice.sender != choice.mail.defaultSender {
                throw fail(
                    value, "weights and senders in a recipient group's \"mail\"",
                    expected: "a mail type or an array of them", found: value.found)
            }
            return mail
        }
        let count = field(fields, "count", default: 1) { value throws(ScenarioError) in
            try integer(value, "\"count\"", in: Limits.count)
        }
        let queue = field(fields, "queue", default: ScenarioQueue.none) { value throws(ScenarioError) in
            try choice(value, "queue", as: ScenarioQueue.self)
        }
        let sender = field(fields, "sender", default: ScenarioSenderFilter.any) { value throws(ScenarioError) in
            try senderFilter(value)
        }
        let lifetime = field(fields, "lifetime", default: .some(nil)) { value throws(ScenarioError) -> Double? in
            try number(value, "\"lifetime\"", in: Limits.lifetime, unit: "seconds")
        }
        let end = field(fields, "end", default: ScenarioRecipients.End.unregister) { value throws(ScenarioError) in
            try choice(value, "end", as: ScenarioRecipients.End.self)
        }
        if let kind, let end, kind.isBlock, end == .release || end == .reregister, let endValue = fields["end"] {
            problems.record(
                fail(
                    endValue, "a block cannot end with \"\(end.rawValue)\"",
                    expected: "an end for blocks, which the post office holds strongly", found: endValue.found,
                    valid: [ScenarioRecipients.End.unregister.rawValue, ScenarioRecipients.End.leak.rawValue]))
            return nil
        }
        let handlerTime = field(fields, "handlerTime", default: 0) { value throws(ScenarioError) in
            try number(value, "\"handlerTime\"", in: Limits.handlerTime, unit: "seconds")
        }
        guard let kind, let mail, let count, let queue, let sender, let lifetime, let end, let handlerTime else {
            return nil
        }
        let registrations = count * mail.count
        let limit = field(fields, "limit", default: max(1_000, registrations)) { value throws(ScenarioError) in
            let limit = try integer(value, "\"limit\"", in: Limits.limit)
            guard limit >= registrations else {
                throw fail(
                    value, "\"limit\" below the group's first registrations",
                    expected: "at least count x mail types = \(registrations)", found: value.found)
            }
            return limit
        }
        let scope = field(fields, "scope", default: .some(nil)) { value throws(ScenarioError) -> String? in
            try text(value, "\"scope\"", maxLength: Limits.scopeLength)
        }
        let leakEvery = field(fields, "leakEvery", default: .some(nil)) { value throws(ScenarioError) -> Int? in
            guard lifetime != nil else {
                throw fail(
                    value, "\"leakEvery\" without a \"lifetime\"", expected: "a lifetime, whose ends can leak",
                    found: value.found)
            }
            return try integer(value, "\"leakEvery\"", in: Limits.leakEvery)
        }
        guard let limit, let scope, let leakEvery else { return nil }
        return ScenarioRecipients(
            kind: kind, mail: mail.map(\.mail), count: count, queue: queue, sender: sender, lifetime: lifetime,
            end: end, handlerTime: handlerTime, limit: limit, scope: scope, leakEvery: leakEvery)
    }

    /// `any`, `CartService`, `CartService?` or `exactly CartService`.
    private func senderFilter(_ value: JSONValue) throws(ScenarioError) -> ScenarioSenderFilter {
        let names = ScenarioSenderType.allCases.map(\.rawValue)
        let valid = ["any", "NAME", "NAME?", "exactly NAME where NAME is one of " + names.joined(separator: ", ")]
        guard case .string(let text) = value.kind else {
            throw fail(
                value, "wrong type for \"sender\"", expected: "a sender filter (a string)", found: value.found,
                valid: valid)
        }
        if text == "any" { return .any }
        var name = Substring(text)
        var make: (ScenarioSenderType) -> ScenarioSenderFilter = { .required($0) }
        if name.hasPrefix("exactly ") {
            name = name.dropFirst("exactly ".count)
            make = { .exact($0) }
        } else if name.hasSuffix("?") {
            name = name.dropLast()
            make = { .optional($0) }
        }
        guard let type = ScenarioSenderType(rawValue: String(name)) else {
            throw fail(value, "unknown sender filter", expected: "a sender filter", found: value.found, valid: valid)
        }
        return make(type)
    }

    // MARK: - Checked values

    private func fail(
        _ value: JSONValue, _ problem: String, expected: String, found: String, valid: [String] = []
    ) -> ScenarioError {
        ScenarioError(
            file: file, line: value.position.line, column: value.position.column, problem: problem, expected: expected,
            found: found, valid: valid)
    }

    /// The fields of an object; unknown and missing fields are logged (each its own problem) and the known ones
    /// returned, so that their own problems are found too. `nil` when the value is not an object.
    private func object(
        _ value: JSONValue, _ what: String, allowed: [String], required: [String]
    ) -> [String: JSONValue]? {
        do {
            return try fields(of: value, what, allowed: allowed, required: required, log: true)
        } catch {
            problems.record(error)
            return nil
        }
    }

    /// The fields of an object small enough to be one value (a ramp, a mail entry, bursts): its first problem thrown.
    private func strictObject(
        _ value: JSONValue, _ what: String, allowed: [String], required: [String]
    ) throws(ScenarioError) -> [String: JSONValue] {
        try fields(of: value, what, allowed: allowed, required: required, log: false)
    }

    private func fields(
        of value: JSONValue, _ what: String, allowed: [String], required: [String], log: Bool
    ) throws(ScenarioError) -> [String: JSONValue] {
        guard case .object(let members) = value.kind else {
            throw fail(value, "wrong type for a \(what)", expected: "an object {...}", found: value.found)
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                let error = ScenarioError(
                    file: file, line: member.keyPosition.line, column: member.keyPosition.column,
                    problem: "unknown field in \(what)", expected: "a field of a \(what)",
                    found: "\"\(JSONValue.shorten(member.key))\"", valid: allowed)
                if !log { throw error }
                problems.record(error)
                continue
            }
            fields[member.key] = member.value
        }
        for key in required where fields[key] == nil {
            let present = members.map { "\"\(JSONValue.shorten($0.key))\"" }
            let error = fail(
                value, "missing field \"\(key)\" in \(what)", expected: "a \"\(key)\" field",
                found: present.isEmpty ? "an empty object" : "only " + present.joined(separator: ", "))
            if !log { throw error }
            problems.record(error)
        }
        return fields
    }

    /// A field decoded by `decode`, or `defaultValue` when it is absent. `nil` when it is absent without a default
    /// (``object(_:_:allowed:required:)`` logged that) or when `decode` found a problem, which is logged.
    private func field<T>(
        _ fields: [String: JSONValue], _ key: String, default defaultValue: T? = nil,
        _ decode: (JSONValue) throws(ScenarioError) -> T
    ) -> T? {
        guard let value = fields[key] else { return defaultValue }
        do {
            return try decode(value)
        } catch {
            problems.record(error)
            return nil
        }
    }

    private func text(_ value: JSONValue, _ what: String, maxLength: Int) throws(ScenarioError) -> String {
        guard case .string(let text) = value.kind else {
            throw fail(value, "wrong type for \(what)", expected: "a string", found: value.found)
        }
        guard !text.isEmpty, text.unicodeScalars.count <= maxLength,
            !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw fail(
                value, "bad \(what)", expected: "1 to \(maxLength) characters on one line", found: value.found)
        }
        return text
    }

    private func number(
        _ value: JSONValue, _ what: String, in range: ClosedRange<Double>, unit: String
    ) throws(ScenarioError) -> Double {
        guard case .number(let number) = value.kind else {
            throw fail(value, "wrong type for \(what)", expected: "a number (\(unit))", found: value.found)
        }
        guard range.contains(number) else {
            throw fail(
                value, "\(what) out of range",
                expected: "\(unit) from \(JSONValue.format(range.lowerBound)) to \(JSONValue.format(range.upperBound))",
                found: value.found)
        }
        return number
    }

    private func integer(_ value: JSONValue, _ what: String, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
        guard case .number(let number) = value.kind, number == number.rounded() else {
            throw fail(value, "wrong type for \(what)", expected: "a whole number", found: value.found)
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw fail(
                value, "\(what) out of range",
                expected: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                found: value.found)
        }
        return Int(number)
    }

    /// One of a fixed set of names, such as a mail type or a queue.
    private func choice<T: RawRepresentable & CaseIterable>(
        _ value: JSONValue, _ what: String, as type: T.Type, extra: [String] = []
    ) throws(ScenarioError) -> T where T.RawValue == String {
        let valid = T.allCases.map(\.rawValue) + extra
        guard case .string(let text) = value.kind else {
            throw fail(
                value, "wrong type for \(what)", expected: "a \(what) name (a string)", found: value.found, valid: valid
            )
        }
        guard let result = T(rawValue: text) else {
            throw fail(value, "unknown \(what)", expected: "a \(what)", found: value.found, valid: valid)
        }
        return result
    }
}
