#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CUndoHostSupport

/// How a plugin runs in a process of its own (issue 31): loaded by `undo-plugin-runner`, a
/// small program that holds only that plugin and answers the host's calls over a socket. A
/// crash (a signal, an abort, an unexpected exit) or a call that does not return within
/// ``watchdogMilliseconds`` fails that call with `UNDO_ECRASHED`, leaves the history as it
/// was before the call, and the host starts the plugin again and brings each of its documents
/// back to the state the history says. Isolation protects against crashes and hangs; it does
/// not restrict what the plugin may do: it still runs with the user's rights.
public struct PluginIsolation: Sendable, Equatable {
    /// How long one call may take before the host stops the plugin's process (the watchdog).
    public var watchdogMilliseconds: Int
    /// The runner program; `nil`: ``runnerEnvironmentVariable`` when set, else
    /// `undo-plugin-runner` next to the program or library that holds the host (and, for an
    /// installed library, `../libexec/undohost/` from it).
    public var runnerPath: String?

    /// Isolation with the default watchdog (``defaultWatchdogMilliseconds``).
    public init(watchdogMilliseconds: Int = PluginIsolation.defaultWatchdogMilliseconds, runnerPath: String? = nil) {
        self.watchdogMilliseconds = watchdogMilliseconds
        self.runnerPath = runnerPath
    }

    /// Five seconds: long for a call that runs under the history's lock, short for a person.
    public static let defaultWatchdogMilliseconds = 5_000
    /// The environment variable that names the runner program.
    public static let runnerEnvironmentVariable = "UNDOHOST_PLUGIN_RUNNER"
    /// The runner's file name.
    public static let runnerName = "undo-plugin-runner"
    /// How many crashes in a row (with no call answered in between) disable a plugin.
    public static let crashesBeforeDisabling = 3

    /// The runner to start: the configured path, the environment's, or the first that exists
    /// of `undo-plugin-runner` in the folder of the program, of the image this code is in
    /// (libundohost.so), and `libexec/undohost` beside either (scripts/install.sh).
    func resolvedRunner() -> String? {
        if let runnerPath { return runnerPath }
        if let value = getenv(Self.runnerEnvironmentVariable), value.pointee != 0 { return String(cString: value) }
        var folders: [String] = []
        let marker: @convention(c) () -> Void = {}
        if let address = undo__address_of(marker), let image = DynamicLibrary.imagePath(containing: address),
           let resolved = realpath(image, nil) {
            folders.append(SystemFiles.folder(of: String(cString: resolved)))
            free(resolved)
        }
        if let executable = SystemFiles.linkTarget("/proc/self/exe") {
            folders.append(SystemFiles.folder(of: executable))
        }
        let candidates = folders.flatMap { folder in
            [SystemFiles.path(folder, Self.runnerName),
             SystemFiles.path(SystemFiles.folder(of: folder), "libexec/undohost/" + Self.runnerName)]
        }
        return candidates.first { access($0, X_OK) == 0 }
    }
}

