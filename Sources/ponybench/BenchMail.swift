import PonyExpress

/// The mail every workload posts.
struct BenchMail: Mail {
    let value: Int
}

/// Mail of another type, for rows that set options on a type the workload does not post.
struct OtherBenchMail: Mail {}

/// Keeps a value alive past the optimiser, at the cost of one call, the same in every bus.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// Builds the `index`-th of up to 16,384 distinct mail types, as nested generics chosen by the index's bits, and
/// hands it to `visit`: how the benchmark registers recipients for thousands of unrelated mail types.
func withOtherMailType(_ index: Int, _ visitor: some MailTypeVisitor) {
    func build<T: EmptyMail>(_: T.Type, bits: Int, remaining: Int) {
        if remaining == 0 {
            visitor.visit(T.self)
        } else if bits & 1 == 0 {
            build(Left<T>.self, bits: bits >> 1, remaining: remaining - 1)
        } else {
            build(Right<T>.self, bits: bits >> 1, remaining: remaining - 1)
        }
    }
    build(Root.self, bits: index, remaining: 14)
}

/// Receives one generated mail type.
protocol MailTypeVisitor {
    func visit<T: EmptyMail>(_ type: T.Type)
}

/// Mail that can be made without arguments: the generated types, so that a workload can post them too.
protocol EmptyMail: Mail {
    init()
}

private struct Root: EmptyMail {}
private struct Left<Inner: Mail>: EmptyMail {}
private struct Right<Inner: Mail>: EmptyMail {}
