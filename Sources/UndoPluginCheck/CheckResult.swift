/// What one test found.
public struct CheckResult: Error, Sendable, Equatable {
    public enum Status: String, Sendable {
        case passed, failed, skipped
        /// What the test is for never happened (an action never succeeded with the arguments
        /// tried): not a pass, and said as loudly as a failure.
        case notRun = "not-run"
    }

    public var test: String
    public var status: Status
    /// Why it failed (the first failure, with what led to it), or why it was skipped.
    public var messages: [String]
    /// What could not be checked, and advice that is not a failure.
    public var notes: [String]
    /// Style the plugin should change (a name that does not make a good menu title): shown, but
    /// the test still passes. Failures are kept for behaviour that is broken.
    public var warnings: [String]

    public init(test: String, status: Status, messages: [String] = [], notes: [String] = [], warnings: [String] = []) {
        self.test = test
        self.status = status
        self.messages = messages
        self.notes = notes
        self.warnings = warnings
    }
}

/// A test's failure: ends the test (what follows would be measured against a wrong model).
struct CheckFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A test that cannot run for this plugin (it has no action type that merges, say).
struct CheckSkip: Error {
    var reason: String
}

/// A test whose subject never ran (an action that never succeeded): not a pass.
struct CheckNotRun: Error {
    var reason: String
}

/// What a test collects while it runs: notes, and the steps taken (shown with a failure, so it
/// can be followed by hand).
final class CheckLog {
    var notes: [String] = []
    var warnings: [String] = []
    private(set) var trail: [String] = []

    func note(_ text: String) {
        if !notes.contains(text) { notes.append(text) }
    }

    func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }

    /// Remembers a step; only the last few are kept.
    func step(_ text: String) {
        trail.append(text)
        if trail.count > 12 { trail.removeFirst(trail.count - 12) }
    }
}
