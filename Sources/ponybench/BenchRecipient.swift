/// A recipient object for the object-and-method workloads.
final class BenchRecipient {
    func receive(_ mail: BenchMail) { blackHole(mail) }
}
