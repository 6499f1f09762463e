/// A recipient object for the object-and-method workloads.
final class BenchRecipient: Sendable {
    func receive(_ mail: BenchMail) { blackHole(mail) }
}
