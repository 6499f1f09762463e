/// How a handler treats the sender; checked before delivery so that a mismatch is reported as a skip.
@usableFromInline
enum SenderParameter {
    /// No sender parameter.
    case absent
    /// `S?`: `nil` or an `S`.
    case optional
    /// `S`: only an `S`.
    case required
}
