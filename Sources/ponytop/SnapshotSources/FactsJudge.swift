import PonyExpressMonitor

/// ponytop's judge of an app's rule facts, the one an attached app's snapshots and a recording's are judged by: the
/// app's rules with the viewer's over them, a memory of its own, facts checked against the rules before they are
/// judged, and what it found put into the snapshot in place of the findings of the rules it judged.
struct FactsJudge {
    /// What one snapshot's facts gave: the rules they let the judge judge, with what those hold and took back.
    struct Judged {
        var kinds: Set<Finding.Kind>
        var holding: [Finding]
        var retracted: [Finding]

        /// Puts these findings into `snapshot` in place of the findings of the rules judged.
        func apply(to snapshot: inout MonitorSnapshot) {
            snapshot.replaceFindings(of: kinds, with: holding, retracted: retracted)
        }
    }

    /// Why a judge cannot be made or cannot judge some facts, as one line's parts: the setting, its value and what
    /// it must be. Each source says it in its own sentence around ``clause``.
    struct Refusal: Error {
        let setting: String
        let value: String
        let expected: String

        init(_ error: MonitorSettingsError) {
            (setting, value, expected) = (error.setting, error.value, error.expected)
        }

        /// `stalledQueue.window = 600: expected at most 60 s, ...`.
        var clause: String { "\(setting) = \(value): expected \(expected)" }
    }

    let judge: FindingJudge

    /// A judge with `settings`.
    init(settings: MonitorSettings) {
        judge = FindingJudge(judgingFactsWith: settings)
    }

    /// A judge with the app's rules (as its hello names them; the defaults when it names none) and `overrides` over
    /// them.
    ///
    /// - Throws: ``Refusal`` when the app's rules, with the viewer's over them, are out of range.
    init(appRules: RuleOverrides?, overriddenBy overrides: RuleOverrides) throws(Refusal) {
        do throws(MonitorSettingsError) {
            self.init(settings: try MonitorSettings(appRules: appRules ?? RuleOverrides(), overriddenBy: overrides))
        } catch {
            throw Refusal(error)
        }
    }

    /// What the agent must gather for this judge: the floors of its thresholds.
    var floors: RuleFacts.Floors { judge.floors }

    /// Checks that the rules can judge `facts`: they need no longer window than the app keeps, and facts gathered
    /// with the bounds they were gathered with.
    ///
    /// - Throws: ``Refusal`` naming the first setting that cannot.
    func validate(_ facts: RuleFacts) throws(Refusal) {
        do throws(MonitorSettingsError) {
            try judge.validate(for: facts)
        } catch {
            throw Refusal(error)
        }
    }

    /// Judges `facts`, dating what the judge raises first no later than the same findings in `earlier` (a recording's
    /// own findings, which a judge that sees it again keeps the dates of).
    func judge(_ facts: RuleFacts, datingFrom earlier: [Finding] = []) -> Judged {
        let judged = judge.judgeWithRetractions(facts, datingFrom: earlier)
        return Judged(
            kinds: FindingJudge.kindsJudged(from: facts), holding: judged.holding, retracted: judged.retracted)
    }

    /// Forgets every finding: the viewer's `r`.
    func reset() { judge.reset() }
}
