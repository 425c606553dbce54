/// A property a fuzz target checks did not hold: the input found a bug. libFuzzer sees it as a
/// crash (the executables trap on it); the regression tests report it as a failure.
public struct FuzzInvariantViolation: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// Throws when `condition` is false. The message is built only on failure.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(FuzzInvariantViolation) {
    if !condition { throw FuzzInvariantViolation(message()) }
}
