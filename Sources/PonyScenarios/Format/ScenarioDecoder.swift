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
    }

    static let scenarioFields = ["name", "summary", "then", "recipients", "phases"]
    static let phaseFields = ["name", "duration", "threads", "rate", "mail", "bursts"]
    static let groupFields = ["kind", "mail", "count", "queue", "sender", "lifetime", "end", "handlerTime", "limit"]
    static let burstFields = ["every", "size", "mail"]
    static let choiceFields = ["weight", "sender"]
    static let rampFields = ["from", "to"]

    let file: String

    // MARK: - The scenario

    func scenario(_ root: JSONValue) throws(ScenarioError) -> Scenario {
        let fields = try object(
            root, "scenario", allowed: Self.scenarioFields, required: ["name", "summary", "phases"])
        let name = try text(fields["name"]!, "\"name\"", maxLength: Limits.nameLength)
        let summary = try text(fields["summary"]!, "\"summary\"", maxLength: Limits.summaryLength)
        let ending =
            try fields["then"].map { value throws(ScenarioError) in
                try choice(value, "ending (\"then\")", as: Scenario.Ending.self)
            } ?? .repeat
        var recipients: [ScenarioRecipients] = []
        if let value = fields["recipients"] {
            let list = try array(value, "\"recipients\"", expected: "an array of recipient groups")
            guard list.count <= Limits.groups else {
                throw fail(
                    value, "too many recipient groups", expected: "at most \(Limits.groups)", found: "\(list.count)")
            }
            for element in list { recipients.append(try group(element)) }
        }
        let phaseValue = fields["phases"]!
        let phaseList = try array(phaseValue, "\"phases\"", expected: "an array of phases")
        guard !phaseList.isEmpty else {
            throw fail(phaseValue, "empty phase list", expected: "at least one phase", found: "[]")
        }
        guard phaseList.count <= Limits.phases else {
            throw fail(phaseValue, "too many phases", expected: "at most \(Limits.phases)", found: "\(phaseList.count)")
        }
        var phases: [ScenarioPhase] = []
        for (index, element) in phaseList.enumerated() { phases.append(try phase(element, number: index + 1)) }
        return Scenario(name: name, summary: summary, ending: ending, recipients: recipients, phases: phases)
    }

    // MARK: - Phases

    private func phase(_ value: JSONValue, number: Int) throws(ScenarioError) -> ScenarioPhase {
        let fields = try object(value, "phase", allowed: Self.phaseFields, required: ["duration", "rate", "mail"])
        let name =
            try fields["name"].map { value throws(ScenarioError) in
                try text(value, "phase \"name\"", maxLength: Limits.nameLength)
            } ?? "phase \(number)"
        let duration = try self.number(fields["duration"]!, "\"duration\"", in: Limits.duration, unit: "seconds")
        let threads =
            try fields["threads"].map { value throws(ScenarioError) in
                try integer(value, "\"threads\"", in: Limits.threads)
            } ?? 1
        let rate = try self.rate(fields["rate"]!)
        let mail = try mix(fields["mail"]!)
        let bursts = try fields["bursts"].map { value throws(ScenarioError) in try self.bursts(value) }
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
            let fields = try object(value, "ramp", allowed: Self.rampFields, required: Self.rampFields)
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
        let fields = try object(value, "mail entry", allowed: Self.choiceFields, required: [])
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
        let fields = try object(value, "bursts", allowed: Self.burstFields, required: ["every", "size"])
        return ScenarioBursts(
            every: try number(fields["every"]!, "bursts \"every\"", in: Limits.burstEvery, unit: "seconds"),
            size: try integer(fields["size"]!, "bursts \"size\"", in: Limits.burstSize),
            mail: try fields["mail"].map { value throws(ScenarioError) in try mix(value) } ?? [])
    }

    // MARK: - Recipients

    private func group(_ value: JSONValue) throws(ScenarioError) -> ScenarioRecipients {
        let fields = try object(value, "recipient group", allowed: Self.groupFields, required: ["kind", "mail"])
        let kind = try choice(fields["kind"]!, "recipient kind", as: ScenarioRecipientKind.self)
        let mailValue = fields["mail"]!
        let mail = try mix(mailValue)
        for choice in mail where choice.weight != 1 || choice.sender != choice.mail.defaultSender {
            throw fail(
                mailValue, "weights and senders in a recipient group's \"mail\"",
                expected: "a mail type or an array of them", found: mailValue.found)
        }
        let count =
            try fields["count"].map { value throws(ScenarioError) in
                try integer(value, "\"count\"", in: Limits.count)
            } ?? 1
        let queue =
            try fields["queue"].map { value throws(ScenarioError) in
                try choice(value, "queue", as: ScenarioQueue.self)
            } ?? .none
        let sender = try fields["sender"].map { value throws(ScenarioError) in try senderFilter(value) } ?? .any
        let lifetime = try fields["lifetime"].map { value throws(ScenarioError) in
            try number(value, "\"lifetime\"", in: Limits.lifetime, unit: "seconds")
        }
        let endValue = fields["end"]
        let end =
            try endValue.map { value throws(ScenarioError) in
                try choice(value, "end", as: ScenarioRecipients.End.self)
            } ?? .unregister
        if kind.isBlock, end == .release || end == .reregister, let endValue {
            throw fail(
                endValue, "a block cannot end with \"\(end.rawValue)\"",
                expected: "an end for blocks, which the post office holds strongly", found: endValue.found,
                valid: [ScenarioRecipients.End.unregister.rawValue, ScenarioRecipients.End.leak.rawValue])
        }
        let handlerTime =
            try fields["handlerTime"].map { value throws(ScenarioError) in
                try number(value, "\"handlerTime\"", in: Limits.handlerTime, unit: "seconds")
            } ?? 0
        let registrations = count * mail.count
        let limit =
            try fields["limit"].map { value throws(ScenarioError) in
                let limit = try integer(value, "\"limit\"", in: Limits.limit)
                guard limit >= registrations else {
                    throw fail(
                        value, "\"limit\" below the group's first registrations",
                        expected: "at least count x mail types = \(registrations)", found: value.found)
                }
                return limit
            } ?? max(1_000, registrations)
        return ScenarioRecipients(
            kind: kind, mail: mail.map(\.mail), count: count, queue: queue, sender: sender, lifetime: lifetime,
            end: end, handlerTime: handlerTime, limit: limit)
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

    private func object(
        _ value: JSONValue, _ what: String, allowed: [String], required: [String]
    ) throws(ScenarioError) -> [String: JSONValue] {
        guard case .object(let members) = value.kind else {
            throw fail(value, "wrong type for a \(what)", expected: "an object {...}", found: value.found)
        }
        var fields: [String: JSONValue] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                throw ScenarioError(
                    file: file, line: member.keyPosition.line, column: member.keyPosition.column,
                    problem: "unknown field in \(what)", expected: "a field of a \(what)",
                    found: "\"\(JSONValue.shorten(member.key))\"", valid: allowed)
            }
            fields[member.key] = member.value
        }
        for key in required where fields[key] == nil {
            let present = members.map { "\"\(JSONValue.shorten($0.key))\"" }
            throw fail(
                value, "missing field \"\(key)\" in \(what)", expected: "a \"\(key)\" field",
                found: present.isEmpty ? "an empty object" : "only " + present.joined(separator: ", "))
        }
        return fields
    }

    private func array(_ value: JSONValue, _ what: String, expected: String) throws(ScenarioError) -> [JSONValue] {
        guard case .array(let elements) = value.kind else {
            throw fail(value, "wrong type for \(what)", expected: expected, found: value.found)
        }
        return elements
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
