/// What a debug build of ponybench says before it measures: its figures mean little.
enum DebugBuild {
    /// Prints, in a debug build only, how to run `command` for real figures.
    ///
    /// - Parameter command: The command to run from a release build, such as `ponybench soak`.
    static func warn(_ command: String) {
        #if DEBUG
            print("warning: this is a debug build; use `swift run -c release \(command)` for real figures\n")
        #endif
    }
}
