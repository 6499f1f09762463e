import Glibc

/// A fresh directory, mode 0700, for one test's files or agents (a runtime directory an agent accepts).
public func temporaryRuntimeDirectory() -> String {
    var template = Array("/tmp/ponytop-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}
