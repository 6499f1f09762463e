import Foundation
import PonyExpressMonitor
import PonyTopModel

extension Report {
    /// The report as SARIF 2.1.0 (`--report sarif`), for GitHub code scanning and any SARIF viewer: one rule per
    /// finding kind, with its help, and one result per finding of the run that counts (retracted ones are left out),
    /// located at the registration site's file and line.
    ///
    /// - Parameter sourceRoot: The repository's root: file paths under it become relative to it (`%SRCROOT%`), so
    ///   that a viewer finds them in the repository; `nil` leaves them as they were captured.
    /// - Returns: The SARIF log, pretty-printed JSON.
    package func sarif(sourceRoot: String?) -> String {
        let log = SARIFLog(report: self, sourceRoot: sourceRoot.map(Self.directory))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and nested values only, so encoding cannot fail.
        let data = try! encoder.encode(log)
        return String(decoding: data, as: UTF8.self)
    }

    /// `path` with one trailing slash.
    private static func directory(_ path: String) -> String {
        path.hasSuffix("/") ? path : path + "/"
    }
}

/// The parts of a SARIF 2.1.0 log that ponytop writes: plain schema types, named as the specification names them.
struct SARIFLog: Encodable {
    struct Message: Encodable {
        var text: String
        var markdown: String?
    }

    struct ReportingDescriptor: Encodable {
        struct Configuration: Encodable {
            var level: String
        }

        var id: String
        var name: String
        var shortDescription: Message
        var fullDescription: Message
        var help: Message
        var helpUri: String
        var defaultConfiguration: Configuration
        var properties: [String: String]
    }

    struct Driver: Encodable {
        var name: String
        var version: String
        var semanticVersion: String
        var informationUri: String
        var rules: [ReportingDescriptor]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    struct Region: Encodable {
        var startLine: Int
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var partialFingerprints: [String: String]
        var properties: [String: String]
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var originalUriBaseIds: [String: ArtifactLocation]?
        var properties: [String: String]
    }

    var schema = "https://json.schemastore.org/sarif-2.1.0.json"
    var version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    /// Where the Finding rules article is published.
    static let rulesArticle =
        "https://github.com/ponyexpress/ponyexpress/blob/main/Sources/PonyExpressMonitor/PonyExpressMonitor.docc/"
        + "WhatTheMonitorFinds.md"

    init(report: Report, sourceRoot: String?) {
        let rules = FindingRules.all
        let descriptors = rules.map { rule in
            let settings = rule.parameters.map {
                "`\($0.name)` (\(RuleParameter.format($0.defaultValue))): \($0.summary)"
            }
            let help =
                "\(rule.summary) Category: \(rule.category.rawValue)."
                + (settings.isEmpty ? "" : " Settings: " + settings.joined(separator: "; ") + ".")
                + " Silence it with `ponytop --allow \(rule.kind)`; see the Finding rules article."
            return ReportingDescriptor(
                id: rule.kind.rawValue,
                name: rule.kind.rawValue.prefix(1).uppercased() + rule.kind.rawValue.dropFirst(),
                shortDescription: Message(text: rule.summary), fullDescription: Message(text: rule.summary),
                help: Message(text: help, markdown: help), helpUri: Self.rulesArticle,
                defaultConfiguration: .init(level: Self.level(of: rule.category)),
                properties: ["category": rule.category.rawValue])
        }
        let results = report.findings.filter(\.counts).compactMap { finding -> Result? in
            guard let index = rules.firstIndex(where: { $0.kind.rawValue == finding.kind }) else { return nil }
            let category = Finding.Category(rawValue: finding.category) ?? .slow
            return Result(
                ruleId: finding.kind, ruleIndex: index, level: Self.level(of: category),
                message: Message(text: finding.explanation),
                locations: Self.location(of: finding, sourceRoot: sourceRoot).map { [$0] } ?? [],
                partialFingerprints: [
                    "ponytopFinding/v1": [
                        finding.kind, finding.mailType, finding.site.value ?? "-",
                        finding.subject.value ?? "-",
                    ].joined(separator: "|")
                ],
                properties: [
                    "state": finding.state.rawValue, "mailType": finding.mailType,
                    "site": finding.site.value ?? "-",
                    "worstEvidence": finding.worstEvidence.map { "\($0.name) \($0.text)" }.joined(separator: ", "),
                ])
        }
        var run = Run(
            tool: Tool(
                driver: Driver(
                    name: "ponytop", version: ToolVersion.current, semanticVersion: ToolVersion.current,
                    informationUri: "https://github.com/ponyexpress/ponyexpress", rules: descriptors)),
            results: results, originalUriBaseIds: nil,
            properties: ["partial": report.partial ? "true" : "false", "source": report.source.name])
        if let sourceRoot {
            run.originalUriBaseIds = ["%SRCROOT%": ArtifactLocation(uri: Self.fileURI(sourceRoot), uriBaseId: nil)]
        }
        runs = [run]
    }

    /// `error` for a leak, `warning` for over-subscription and slowness, `note` for churn.
    static func level(of category: Finding.Category) -> String {
        switch category {
        case .leak: "error"
        case .oversubscription, .slow: "warning"
        case .churn: "note"
        }
    }

    /// The finding's registration site: relative to the source root when its file is under it, else the path as
    /// captured; the `#fileID` (`Module/File.swift`) when no path was captured. `nil` without a site.
    static func location(of finding: Report.FindingEntry, sourceRoot: String?) -> Location? {
        guard let site = finding.site.value else { return nil }
        let line = finding.line.value
        let uri: ArtifactLocation
        if let file = finding.file.value {
            if let sourceRoot, file.hasPrefix(sourceRoot) {
                uri = ArtifactLocation(
                    uri: percentEncoded(String(file.dropFirst(sourceRoot.count))), uriBaseId: "%SRCROOT%")
            } else {
                uri = ArtifactLocation(uri: fileURI(file), uriBaseId: nil)
            }
        } else {
            let fileID = site.split(separator: ":").first.map(String.init) ?? site
            uri = ArtifactLocation(uri: percentEncoded(fileID), uriBaseId: nil)
        }
        return Location(
            physicalLocation: PhysicalLocation(
                artifactLocation: uri, region: line.flatMap { $0 > 0 ? Region(startLine: $0) : nil }))
    }

    /// An absolute path as a `file://` URI.
    static func fileURI(_ path: String) -> String {
        "file://" + percentEncoded(path)
    }

    /// A path with the characters a URI may not hold percent-encoded.
    static func percentEncoded(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
