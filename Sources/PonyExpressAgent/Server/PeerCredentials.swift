import Glibc

/// The peer's process, user and group, as `SO_PEERCRED` reports them: Linux's `struct ucred`, which the Glibc
/// module does not import (it needs `_GNU_SOURCE`).
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0

    /// `SO_PEERCRED` from `<asm-generic/socket.h>`.
    static let option: Int32 = 17
}
