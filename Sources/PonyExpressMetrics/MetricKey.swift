/// One time series: a metric's name and its labels, in a fixed order.
package struct MetricKey: Hashable, Sendable, CustomStringConvertible {
    /// One label of a time series.
    package struct Label: Hashable, Sendable {
        /// The label's name, such as `mail_type`.
        package let name: String
        /// Its value, such as `CartUpdated`.
        package let value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The metric's name, such as `ponyexpress_posts_total`.
    package let name: String
    /// Its labels.
    package let labels: [Label]

    package init(_ name: String, _ labels: [Label] = []) {
        self.name = name
        self.labels = labels
    }

    /// The labels as swift-metrics takes them.
    package var dimensions: [(String, String)] { labels.map { ($0.name, $0.value) } }

    /// The series as Prometheus writes it: `ponyexpress_posts_total{mail_type="CartUpdated"}`.
    package var description: String {
        guard !labels.isEmpty else { return name }
        return name + "{" + labels.map { "\($0.name)=\"\($0.value)\"" }.joined(separator: ",") + "}"
    }
}
