import PonyExpress
import PonyExpressMonitor

/// Renders any snapshot value field by field through reflection, so that two values can be compared however they
/// were made: a field the wire dropped shows up as a difference even if no `==` knows it.
enum SnapshotMirror {
    /// Every stored property, recursively, one `path = value` line each, in a canonical order.
    static func render(_ value: Any, path: String = "") -> [String] {
        switch value {
        case let type as TypeIdentity: return ["\(path) = type \(type.qualifiedName) (\(type.name))"]
        case let object as ObjectIdentifier: return ["\(path) = object \(UInt(bitPattern: object))"]
        case let snapshot as MonitorSnapshot:
            var lines = Mirror(reflecting: snapshot).children.filter { $0.label != "recipientIndex" }.flatMap {
                render($0.value, path: path + "." + ($0.label ?? "?"))
            }
            for stats in snapshot.mailTypes.sorted(by: { $0.mailType.qualifiedName < $1.mailType.qualifiedName }) {
                lines += render(
                    snapshot.recipients(of: stats.mailType), path: "\(path).recipients(\(stats.mailType.name))")
            }
            return lines
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return ["\(path) = nil"] }
            return render(wrapped.value, path: path + "?")
        case .collection:
            return ["\(path).count = \(mirror.children.count)"]
                + mirror.children.enumerated().flatMap { render($1.value, path: "\(path)[\($0)]") }
        case .set:
            let elements = mirror.children.map { render($0.value, path: path + "[]") }
            return ["\(path).count = \(elements.count)"] + elements.sorted { $0.joined() < $1.joined() }.flatMap { $0 }
        case .dictionary:
            let entries = mirror.children.map { entry -> (key: String, lines: [String]) in
                let pair = Array(Mirror(reflecting: entry.value).children)
                let key = render(pair[0].value, path: "").joined(separator: ",")
                return (key, render(pair[1].value, path: "\(path)[\(key)]"))
            }
            return ["\(path).count = \(entries.count)"] + entries.sorted { $0.key < $1.key }.flatMap(\.lines)
        case .enum:
            let label = mirror.children.first?.label ?? "\(value)"
            guard let payload = mirror.children.first else { return ["\(path) = .\(value)"] }
            return ["\(path) = .\(label)"] + render(payload.value, path: "\(path).\(label)")
        case .struct, .class, .tuple:
            guard !mirror.children.isEmpty else { return ["\(path) = \(value)"] }
            return mirror.children.enumerated().flatMap { index, child in
                render(child.value, path: path + "." + (child.label ?? "\(index)"))
            }
        default:
            return ["\(path) = \(value)"]
        }
    }

    /// The paths of values that hold nothing: nil optionals and empty collections.
    static func unpopulated(_ lines: [String]) -> [String] {
        lines.filter { $0.hasSuffix(" = nil") || $0.hasSuffix(".count = 0") }
    }
}
