import PonyExpress
import PonyExpressMonitor

extension SiteStats {
    enum WireField: String, CaseIterable, Sendable {
        case site, mailType, kind, lastRegistration, live, liveBlocks, registered, unregistered, pruned, history
        case growthLast10Seconds, growthLastMinute, oldestAge, lifetimes, deliveries, scopes
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.siteStats)

    /// Writes the statistics: a keyed container of its ``WireField``s, in their order; a `nil` optional has no entry.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            if let site {
                writer.key(WireField.site.rawValue)
                site.write(to: &writer)
            }
            if let mailType {
                writer.key(WireField.mailType.rawValue)
                writer.type(mailType)
            }
            if let kind {
                writer.key(WireField.kind.rawValue)
                kind.write(to: &writer)
            }
            if let lastRegistration {
                writer.key(WireField.lastRegistration.rawValue)
                lastRegistration.write(to: &writer)
            }
            writer.key(WireField.live.rawValue)
            writer.signed(Int64(live))
            writer.key(WireField.liveBlocks.rawValue)
            writer.signed(Int64(liveBlocks))
            writer.key(WireField.registered.rawValue)
            writer.unsigned(registered)
            writer.key(WireField.unregistered.rawValue)
            writer.unsigned(unregistered)
            writer.key(WireField.pruned.rawValue)
            writer.unsigned(pruned)
            writer.key(WireField.history.rawValue)
            writer.doubles(history)
            writer.key(WireField.growthLast10Seconds.rawValue)
            writer.signed(Int64(growthLast10Seconds))
            writer.key(WireField.growthLastMinute.rawValue)
            writer.signed(Int64(growthLastMinute))
            if let oldestAge {
                writer.key(WireField.oldestAge.rawValue)
                writer.unsigned(oldestAge)
            }
            writer.key(WireField.lifetimes.rawValue)
            lifetimes.write(to: &writer)
            writer.key(WireField.deliveries.rawValue)
            writer.unsigned(deliveries)
            if !scopes.isEmpty {
                writer.key(WireField.scopes.rawValue)
                writer.container { writer in
                    for counts in scopes {
                        writer.element()
                        counts.write(to: &writer)
                    }
                }
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote; an optional field absent or `nil` reads `nil`.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var site: SourceLocation??
        var mailType: TypeIdentity??
        var kind: RecipientKind??
        var lastRegistration: RecipientInfo??
        var live: Int?
        var liveBlocks: Int?
        var registered: UInt64?
        var unregistered: UInt64?
        var pruned: UInt64?
        var history: [Double]?
        var growthLast10Seconds: Int?
        var growthLastMinute: Int?
        var oldestAge: Nanoseconds??
        var lifetimes: LifetimeSummary?
        var deliveries: UInt64?
        var scopes: [ScopeCounts]?
        let what: StaticString = "a site's statistics"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .site: if site == nil { site = .some(try slot.map { try SourceLocation(wire: wire, slot: $0) }) }
            case .mailType: if mailType == nil { mailType = .some(try slot.map { try wire.type($0, what) }) }
            case .kind: if kind == nil { kind = .some(try slot.map { try RecipientKind(wire: wire, slot: $0) }) }
            case .lastRegistration:
                if lastRegistration == nil {
                    lastRegistration = .some(try slot.map { try RecipientInfo(wire: wire, slot: $0) })
                }
            case .live: if live == nil { live = try wire.int(slot, what) }
            case .liveBlocks: if liveBlocks == nil { liveBlocks = try wire.int(slot, what) }
            case .registered: if registered == nil { registered = try wire.unsigned(slot, what) }
            case .unregistered: if unregistered == nil { unregistered = try wire.unsigned(slot, what) }
            case .pruned: if pruned == nil { pruned = try wire.unsigned(slot, what) }
            case .history: if history == nil { history = try wire.doubles(slot, what) }
            case .growthLast10Seconds:
                if growthLast10Seconds == nil { growthLast10Seconds = try wire.int(slot, what) }
            case .growthLastMinute: if growthLastMinute == nil { growthLastMinute = try wire.int(slot, what) }
            case .oldestAge: if oldestAge == nil { oldestAge = .some(try slot.map { try wire.unsigned($0, what) }) }
            case .lifetimes: if lifetimes == nil { lifetimes = try LifetimeSummary(wire: wire, slot: slot) }
            case .deliveries: if deliveries == nil { deliveries = try wire.unsigned(slot, what) }
            case .scopes:
                if scopes == nil {
                    var read: [ScopeCounts] = []
                    try wire.forEachElement(in: slot, what) { read.append(try ScopeCounts(wire: wire, slot: $0)) }
                    scopes = read
                }
            }
        }
        self.init(
            site: site ?? nil, mailType: mailType ?? nil, kind: kind ?? nil,
            lastRegistration: lastRegistration ?? nil, live: try WireFields.required(live, what, "live"),
            liveBlocks: try WireFields.required(liveBlocks, what, "liveBlocks"),
            registered: try WireFields.required(registered, what, "registered"),
            unregistered: try WireFields.required(unregistered, what, "unregistered"),
            pruned: try WireFields.required(pruned, what, "pruned"),
            history: try WireFields.required(history, what, "history"),
            growthLast10Seconds: try WireFields.required(growthLast10Seconds, what, "growthLast10Seconds"),
            growthLastMinute: try WireFields.required(growthLastMinute, what, "growthLastMinute"),
            oldestAge: oldestAge ?? nil, lifetimes: try WireFields.required(lifetimes, what, "lifetimes"),
            deliveries: try WireFields.required(deliveries, what, "deliveries"), scopes: scopes ?? [])
    }
}

extension ScopeCounts {
    enum WireField: String, CaseIterable, Sendable {
        case name, leakedScopes, cleanScopes, outlived
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.scopeCounts)

    /// Writes the counts: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.name.rawValue)
            writer.string(name)
            writer.key(WireField.leakedScopes.rawValue)
            writer.unsigned(leakedScopes)
            writer.key(WireField.cleanScopes.rawValue)
            writer.unsigned(cleanScopes)
            writer.key(WireField.outlived.rawValue)
            writer.signed(Int64(outlived))
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var name: String?
        var leakedScopes: UInt64?
        var cleanScopes: UInt64?
        var outlived: Int?
        let what: StaticString = "a site's scope counts"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .name: if name == nil { name = try wire.string(slot, what) }
            case .leakedScopes: if leakedScopes == nil { leakedScopes = try wire.unsigned(slot, what) }
            case .cleanScopes: if cleanScopes == nil { cleanScopes = try wire.unsigned(slot, what) }
            case .outlived: if outlived == nil { outlived = try wire.int(slot, what) }
            }
        }
        self.init(
            name: try WireFields.required(name, what, "name"),
            leakedScopes: try WireFields.required(leakedScopes, what, "leakedScopes"),
            cleanScopes: try WireFields.required(cleanScopes, what, "cleanScopes"),
            outlived: try WireFields.required(outlived, what, "outlived"))
    }
}

extension SourceLocation {
    enum WireField: String, CaseIterable, Sendable {
        case fileID, line, filePath
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.sourceLocation)

    /// Writes the location: a keyed container of its ``WireField``s, in their order.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.fileID.rawValue)
            writer.string(fileID)
            writer.key(WireField.line.rawValue)
            writer.unsigned(UInt64(line))
            if let filePath {
                writer.key(WireField.filePath.rawValue)
                writer.string(filePath)
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var fileID: String?
        var line: UInt64?
        var filePath: String?
        let what: StaticString = "a source location"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .fileID: if fileID == nil { fileID = try wire.string(slot, what) }
            case .line: if line == nil { line = try wire.unsigned(slot, what) }
            case .filePath: if filePath == nil { filePath = try wire.string(slot, what) }
            }
        }
        let value = try WireFields.required(line, what, "line")
        guard let line = UInt(exactly: value) else { throw WireError.malformed("\(what): \(value) does not fit UInt") }
        self.init(fileID: try WireFields.required(fileID, what, "fileID"), line: line, filePath: filePath)
    }
}

extension LifetimeSummary {
    enum WireField: String, CaseIterable, Sendable {
        case ended, median, p90
    }

    static let wireFields = WireFieldNames<WireField>(id: HandWrittenFields.lifetimeSummary)

    /// Writes the summary: a keyed container of its ``WireField``s, in their order; a `nil` optional has no entry.
    func write(to writer: inout WireWriter, slot: Bool = true) {
        writer.container(slot: slot) { writer in
            writer.key(WireField.ended.rawValue)
            writer.unsigned(ended)
            if let median {
                writer.key(WireField.median.rawValue)
                writer.unsigned(median)
            }
            if let p90 {
                writer.key(WireField.p90.rawValue)
                writer.unsigned(p90)
            }
        }
    }

    /// Reads what ``write(to:slot:)`` wrote.
    init(wire: WireFields, slot: Range<Int>?) throws {
        var ended: UInt64?
        var median: Nanoseconds??
        var p90: Nanoseconds??
        let what: StaticString = "a lifetime summary"
        try wire.forEachField(in: slot, of: Self.wireFields, what) { field, slot in
            switch field {
            case .ended: if ended == nil { ended = try wire.unsigned(slot, what) }
            case .median: if median == nil { median = .some(try slot.map { try wire.unsigned($0, what) }) }
            case .p90: if p90 == nil { p90 = .some(try slot.map { try wire.unsigned($0, what) }) }
            }
        }
        self.init(ended: try WireFields.required(ended, what, "ended"), median: median ?? nil, p90: p90 ?? nil)
    }
}
